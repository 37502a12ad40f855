#define STALE_SCALE 2.0f
