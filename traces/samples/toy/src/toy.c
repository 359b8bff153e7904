/* toy.c — the loop the samples of skein's toy set point at. */
#include <stddef.h>

/* four arrays, from L1-sized to larger than the node's caches */
double a[1024], b[1 << 18], c[1 << 22], d[1 << 22];

double
sweep(size_t n, const size_t *z)
{
	double s = 0;
	for (size_t i = 0; i < n; i++) {
		s += a[i % 1024];          /* line 12: small, stays in L1 */
		s += b[z[i] % (1 << 18)];  /* line 13: fits in L3 */
		s += c[z[i] * 64];         /* line 14: local memory */
		s *= c[z[i] * 64 + 1];     /* line 15 */
	}
	return s;
}

double
remote(size_t n, const size_t *z)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += d[z[i] * 64];         /* line 25: the other package's memory */
	return s;
}
