#ifndef NLUKIT_CBLAS_SHIM_H
#define NLUKIT_CBLAS_SHIM_H
// OpenBLAS's cblas.h also declares openblas_set_num_threads / openblas_get_config / openblas_get_corename.
#include <cblas.h>
#endif
