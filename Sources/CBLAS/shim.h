#ifndef PIPELINE_CBLAS_SHIM_H
#define PIPELINE_CBLAS_SHIM_H
#include <cblas.h>

/* OpenBLAS' own thread control (declared in its cblas.h too on most builds). */
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);

/* LAPACK least squares (Fortran ABI, exported by libopenblas; Debian ships no LAPACKE). */
void dgels_(const char *trans, const int *m, const int *n, const int *nrhs,
            double *a, const int *lda, double *b, const int *ldb,
            double *work, const int *lwork, int *info);
#endif
