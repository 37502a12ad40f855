#define STALE_ROWS 3
