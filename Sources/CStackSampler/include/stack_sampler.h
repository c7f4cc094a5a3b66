// The main thread's stack, taken from another thread during a stall (`make bench` only):
// SIGPROF to the thread, whose handler records its return addresses. See StackSampler.swift.
#pragma once
#include <pthread.h>
#include <stdint.h>

// Installs the SIGPROF handler (and loads the unwinder beforehand). 0 on success.
int notula_stack_sampler_install(void);

// Sends SIGPROF to `thread` and waits up to `timeout_ms` for its stack: the number of
// return addresses written to `frames` (innermost first, at most `capacity`), or -1.
int notula_stack_sample(pthread_t thread, void **frames, int capacity, int timeout_ms);

// The file holding `address` (NULL when unknown) and the address's offset in it.
const char *notula_stack_frame_file(void *address, uintptr_t *offset);
