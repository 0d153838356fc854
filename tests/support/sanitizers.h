// What a sanitizer build changes for tests that measure. kUnderSanitizer: the build runs
// under AddressSanitizer or ThreadSanitizer, every step several times slower (a test
// that counts what got done within random time windows expects less). FOLIO_OTHER_ALLOCATOR
// is defined when a sanitizer's allocator replaces glibc's malloc: glibc's chunk sizes,
// mallopt and mallinfo2 do not apply then, and the tests that measure them leave those
// checks out.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FOLIO_OTHER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define FOLIO_OTHER_ALLOCATOR 1
#endif
#endif

namespace folio::testing {

#ifdef FOLIO_OTHER_ALLOCATOR
inline constexpr bool kUnderSanitizer = true;
#else
inline constexpr bool kUnderSanitizer = false;
#endif

}  // namespace folio::testing
