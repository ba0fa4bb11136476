//! Regel in the browser: the IO-free core behind four plain exports, so that
//! the page needs no generated bindings (wasm-bindgen's command-line tool
//! must match its crate's version exactly and takes long to build).
//!
//! JavaScript writes a request as UTF-8 JSON into memory it got from
//! [`alloc`], calls [`call`] with its place and length, reads the answer
//! (also JSON) at the returned pointer for [`out_len`] bytes and frees both
//! with [`dealloc`]. The requests and their answers are `api::handle`'s.
//! A wasm instance runs one thread, so the engine's state lives in one
//! thread-local value.

mod api;
mod files;
mod measure;
mod session;

pub use api::handle;

use std::cell::Cell;

thread_local! {
    /// The length of the last answer [`call`] returned.
    static OUT_LEN: Cell<usize> = const { Cell::new(0) };
}

/// Memory for `len` bytes that JavaScript fills; freed with [`dealloc`].
#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    give(vec![0u8; len])
}

/// Hands bytes to JavaScript as a boxed slice, whose length is its
/// allocation's size, so that [`dealloc`] can rebuild it from the length.
/// An empty answer still gets one byte, as [`dealloc`] expects.
fn give(mut v: Vec<u8>) -> *mut u8 {
    if v.is_empty() {
        v.push(0);
    }
    Box::into_raw(v.into_boxed_slice()) as *mut u8
}

/// Frees what [`alloc`] or [`call`] handed out.
///
/// # Safety
/// `ptr` and `len` must be a pointer and length [`alloc`] or [`call`]
/// returned (for [`call`]'s answer, the length is [`out_len`]), freed once.
#[allow(unsafe_code)]
#[no_mangle]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
        ptr,
        len.max(1),
    )));
}

/// Answers the JSON request of `len` bytes at `ptr`; the answer's length is [`out_len`].
///
/// # Safety
/// `ptr` must point at `len` initialised bytes (from [`alloc`]).
#[allow(unsafe_code)]
#[no_mangle]
pub unsafe extern "C" fn call(ptr: *const u8, len: usize) -> *mut u8 {
    let req = std::slice::from_raw_parts(ptr, len);
    let out = handle(&String::from_utf8_lossy(req)).into_bytes();
    OUT_LEN.with(|l| l.set(out.len()));
    give(out)
}

/// The length of the answer the last [`call`] returned.
#[no_mangle]
pub extern "C" fn out_len() -> usize {
    OUT_LEN.with(Cell::get)
}
