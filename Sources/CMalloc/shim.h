// glibc's malloc tuning (mallopt(3)), which Swift's Glibc module does not include.
#if defined(__linux__)
#include <malloc.h>
#endif
