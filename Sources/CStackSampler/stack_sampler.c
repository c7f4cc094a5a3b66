#define _GNU_SOURCE
#include "stack_sampler.h"
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#define CAPACITY 64

// Written by the handler only while a sample is awaited; `taken` publishes them.
static void *frames_taken[CAPACITY];
static volatile int count_taken;
static atomic_int taken;

static void on_sigprof(int signal) {
    (void)signal;
    count_taken = backtrace(frames_taken, CAPACITY);
    atomic_store_explicit(&taken, 1, memory_order_release);
}

int notula_stack_sampler_install(void) {
    void *preload[4];
    backtrace(preload, 4);  // glibc loads the unwinder on first use: never inside the handler
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigprof;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(SIGPROF, &action, NULL);
}

int notula_stack_sample(pthread_t thread, void **frames, int capacity, int timeout_ms) {
    atomic_store_explicit(&taken, 0, memory_order_relaxed);
    if (pthread_kill(thread, SIGPROF) != 0) return -1;
    struct timespec pause = {0, 200000};
    for (int waited = 0; !atomic_load_explicit(&taken, memory_order_acquire); waited++) {
        if (waited * 0.2 >= timeout_ms) return -1;
        nanosleep(&pause, NULL);
    }
    // The handler's own frame and the signal trampoline come first.
    int count = 0;
    for (int index = 2; index < count_taken && count < capacity; index++) frames[count++] = frames_taken[index];
    return count;
}

const char *notula_stack_frame_file(void *address, uintptr_t *offset) {
    Dl_info info;
    if (!dladdr(address, &info) || !info.dli_fname) {
        *offset = (uintptr_t)address;
        return NULL;
    }
    *offset = (uintptr_t)address - (uintptr_t)info.dli_fbase;
    return info.dli_fname;
}
