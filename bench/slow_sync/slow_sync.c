// An LD_PRELOAD shim for benchmarks: every fsync, fdatasync and syncfs takes
// SLOW_SYNC_US microseconds more than the disk needs (default 2000), as a flush does on a
// disk slower than the one at hand (this machine's virtual disk flushes in ~0.2 ms; a
// SATA SSD with a journal takes 1-3 ms, a spinning disk 5-10 ms). Used by
// bench/slow_sync/run.sh to show what group commit saves where a flush costs that much.
// Only the calling thread waits, as for a real flush; other threads go on.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long delay_us(void) {
  static long us = -1;
  if (us < 0) {
    const char* v = getenv("SLOW_SYNC_US");
    us = v != NULL ? atol(v) : 2000;
  }
  return us;
}

static void pause_after(void) {
  struct timespec ts = {delay_us() / 1000000, (delay_us() % 1000000) * 1000};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

#define WRAP(name)                                          \
  int name(int fd) {                                        \
    static int (*real)(int) = NULL;                         \
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, #name); \
    const int r = real(fd);                                 \
    pause_after();                                          \
    return r;                                               \
  }

WRAP(fsync)
WRAP(fdatasync)
WRAP(syncfs)
