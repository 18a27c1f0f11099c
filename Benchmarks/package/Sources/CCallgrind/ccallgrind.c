#include "ccallgrind.h"
#include <mcheck.h>

void pipeline_mtrace_start(void) { mtrace(); }
void pipeline_mtrace_stop(void) { muntrace(); }

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>

int pipeline_callgrind_available(void) { return 1; }
void pipeline_callgrind_start(void) { CALLGRIND_TOGGLE_COLLECT; }
void pipeline_callgrind_stop(void) { CALLGRIND_TOGGLE_COLLECT; }
#else
int pipeline_callgrind_available(void) { return 0; }
void pipeline_callgrind_start(void) {}
void pipeline_callgrind_stop(void) {}
#endif
