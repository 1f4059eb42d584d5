//! The C library's numbers, whatever the process's locale. Lua turns
//! numbers into text and back with the C library (`tostring(0.5)` through
//! `snprintf("%.14g")`, `tonumber` through `strtod`, `string.format("%f")`,
//! the decimal point of `localeconv`), and those follow `LC_NUMERIC`. A
//! game that calls `setlocale(LC_ALL, "")` (GTK and Qt do; so can Python's
//! `locale.setlocale` and LÖVE's `os.setlocale`) in a German locale made
//! `tostring(0.5)` "0,5" and `tonumber("0,5")` 0.5: another map for the
//! same seed. So while the host runs Lua, the thread uses the C locale
//! (`uselocale`, POSIX 2008: this thread only, the process's locale and
//! other threads untouched), and gets its own back after.
//!
//! Elsewhere than on unix this does nothing (the C library there has no
//! `uselocale`); a process there must leave `LC_NUMERIC` at "C".

/// The C locale for numbers on this thread until it drops; then the
/// thread's locale before it.
pub(crate) struct CNumbers {
    #[cfg(unix)]
    before: libc::locale_t,
}

impl CNumbers {
    pub(crate) fn enter() -> CNumbers {
        #[cfg(unix)]
        {
            match c_locale() {
                // SAFETY: the C locale object lives as long as the process.
                Some(c) => CNumbers {
                    before: unsafe { libc::uselocale(c) },
                },
                None => CNumbers {
                    before: std::ptr::null_mut(),
                },
            }
        }
        #[cfg(not(unix))]
        CNumbers {}
    }
}

impl Drop for CNumbers {
    fn drop(&mut self) {
        #[cfg(unix)]
        if !self.before.is_null() {
            // SAFETY: `before` is what uselocale gave (the thread's locale or
            // LC_GLOBAL_LOCALE), still valid: a caller that frees its locale
            // object while a call into dunlua on the same thread uses it
            // has a bug of its own.
            unsafe {
                libc::uselocale(self.before);
            }
        }
    }
}

/// The "C" locale object, made once (never freed: the threads use it).
#[cfg(unix)]
fn c_locale() -> Option<libc::locale_t> {
    /// The object's address (a `locale_t` is a pointer, not `Send`).
    static C: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let made = *C.get_or_init(|| {
        // SAFETY: newlocale with a base of 0 makes a new object or fails
        // with null.
        unsafe { libc::newlocale(libc::LC_ALL_MASK, c"C".as_ptr(), std::ptr::null_mut()) as usize }
    });
    (made != 0).then_some(made as libc::locale_t)
}
