/* main/memory_map_main: q7cc --q7-memory-map, the tool on memmap/'s
 * report and picture (docs/driver.md). */
#ifndef Q7_MEMORY_MAP_MAIN_H
#define Q7_MEMORY_MAP_MAIN_H

/* q7cc --q7-memory-map IMAGE [-o MAP.svg]: its exit code. */
int q7_memory_map_main(int argc, char **argv);

#endif
