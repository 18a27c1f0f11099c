// Callgrind's client requests around the measured call of a stage (scripts/benchmark-thresholds.sh runs it
// under `valgrind --tool=callgrind --collect-atstart=no`): only the instructions between start and stop are counted.
// Outside valgrind they do nothing.
//
// glibc's allocation trace around the same call (mtrace(3)): with libc_malloc_debug.so preloaded and MALLOC_TRACE
// naming a file, every allocation the call makes, on any thread, is written there; the script counts them. Without
// that environment they do nothing.
#ifndef CCALLGRIND_H
#define CCALLGRIND_H

/// 1 when built with valgrind's header (the requests work), 0 without (they do nothing, and counts would be wrong).
int pipeline_callgrind_available(void);
void pipeline_callgrind_start(void);
void pipeline_callgrind_stop(void);
void pipeline_mtrace_start(void);
void pipeline_mtrace_stop(void);

#endif
