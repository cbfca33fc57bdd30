//! Procedural macros of [hotpath](https://docs.rs/hotpath); use them through the `hotpath` crate.
//!
//! Without the `hotpath` feature every macro returns its input unchanged and this crate
//! depends on nothing but `proc_macro`. Arguments are validated in both modes by the
//! same hand-written parser, so a typo is the same compile error either way.

#![deny(missing_docs)]

mod args;
mod error;
#[cfg(feature = "hotpath")]
mod expand;
mod exprs;
mod forwarding;
#[cfg(not(feature = "hotpath"))]
mod inert;
mod note;
mod spec;
mod wrap_spec;

use proc_macro::TokenStream;

/// Profiles the program from this function's start to its end; see `hotpath::main`.
#[proc_macro_attribute]
pub fn main(attr: TokenStream, item: TokenStream) -> TokenStream {
    match spec::main_args(attr) {
        Err(e) => error::with_item(&e, item),
        #[cfg(feature = "hotpath")]
        Ok(args) => {
            let mut out = forwarding::check();
            out.extend(TokenStream::from(expand::main(args, item.into())));
            out
        }
        #[cfg(not(feature = "hotpath"))]
        Ok(args) => {
            let mut out = forwarding::check();
            out.extend(note::item(&args.notes));
            out.extend(item);
            out
        }
    }
}

/// Measures every call of a function or method; see `hotpath::measure`.
#[proc_macro_attribute]
pub fn measure(attr: TokenStream, item: TokenStream) -> TokenStream {
    let checked = spec::measure_args(attr).and_then(|args| {
        let future = args.future.then_some("`future = true`");
        spec::measured_item(&item, "#[hotpath::measure]", future).map(|()| args).map_err(Into::into)
    });
    function(checked, item)
}

/// Measures every call of an async function as a future, reported in the `futures`
/// section; see `hotpath::future_fn`.
#[proc_macro_attribute]
pub fn future_fn(attr: TokenStream, item: TokenStream) -> TokenStream {
    let checked = spec::future_fn_args(attr).and_then(|args| {
        spec::measured_item(&item, "#[hotpath::future_fn]", Some("#[hotpath::future_fn]"))
            .map(|()| args)
            .map_err(Into::into)
    });
    function(checked, item)
}

fn function(checked: Result<spec::MeasureArgs, error::Errors>, item: TokenStream) -> TokenStream {
    match checked {
        Err(e) => error::with_item(&e, item),
        #[cfg(feature = "hotpath")]
        Ok(args) => expand::measure(&args, item.into()).into(),
        #[cfg(not(feature = "hotpath"))]
        Ok(_) => item,
    }
}

/// Measures every function of an `impl` block or inline `mod`; see `hotpath::measure_all`.
#[proc_macro_attribute]
pub fn measure_all(attr: TokenStream, item: TokenStream) -> TokenStream {
    let checked = spec::measure_all_args(attr)
        .and_then(|args| spec::measured_container(&item).map(|()| args).map_err(Into::into));
    match checked {
        Err(e) => error::with_item(&e, item),
        #[cfg(feature = "hotpath")]
        Ok(args) => expand::measure_all(&args, item.into()).into(),
        #[cfg(not(feature = "hotpath"))]
        Ok(_) => item,
    }
}

/// Excludes a function from an enclosing `#[hotpath::measure_all]`; see `hotpath::skip`.
#[proc_macro_attribute]
pub fn skip(attr: TokenStream, item: TokenStream) -> TokenStream {
    match attr.into_iter().next() {
        None => item,
        Some(tt) => {
            let e = error::Error::new(tt.span(), "#[hotpath::skip] takes no parameters");
            error::with_item(&e.into(), item)
        }
    }
}

/// Measures one expression under a label; see `hotpath::measure_block`.
#[proc_macro]
pub fn measure_block(input: TokenStream) -> TokenStream {
    match spec::block_args(input) {
        Err(e) => e.to_tokens(),
        #[cfg(feature = "hotpath")]
        Ok((label, expr)) => expand::block(label, expr.into()).into(),
        #[cfg(not(feature = "hotpath"))]
        Ok((spec::Label::Expr(label), expr)) => inert::passthrough(expr, &[label], &[]),
        #[cfg(not(feature = "hotpath"))]
        Ok((spec::Label::Literal(..), expr)) => inert::passthrough(expr, &[], &[]),
    }
}

/// Starts sampling a Tokio runtime's metrics; see `hotpath::tokio_runtime`.
#[proc_macro]
pub fn tokio_runtime(input: TokenStream) -> TokenStream {
    match spec::tokio_runtime_args(input) {
        Err(e) => e.to_tokens(),
        #[cfg(feature = "hotpath")]
        Ok(args) => expand::tokio_runtime(args).into(),
        #[cfg(not(feature = "hotpath"))]
        Ok(args) => inert::tokio_runtime(args.handle),
    }
}

/// Expands a wrapping macro: the expression unchanged without the feature, wrapped with it.
fn wrap(input: TokenStream, spec: wrap_spec::WrapMacro) -> TokenStream {
    match wrap_spec::wrap_args(input, spec) {
        Err(e) => e.to_tokens(),
        #[cfg(feature = "hotpath")]
        Ok(args) => expand::wrap(spec, args).into(),
        #[cfg(not(feature = "hotpath"))]
        Ok(args) => {
            let label = match args.label {
                Some(spec::Label::Expr(label)) => Some(label),
                _ => None,
            };
            let unevaluated: Vec<TokenStream> = label.into_iter().chain(args.capacity).collect();
            inert::passthrough(args.expr, &unevaluated, &args.notes)
        }
    }
}

/// Wraps a byte-level I/O value so its reads and writes are measured; see `hotpath::io`.
#[proc_macro]
pub fn io(input: TokenStream) -> TokenStream {
    wrap(input, wrap_spec::IO)
}

/// Measures a future: polls, busy and wall time, cancellation; see `hotpath::future`.
#[proc_macro]
pub fn future(input: TokenStream) -> TokenStream {
    wrap(input, wrap_spec::FUTURE)
}

/// Measures a stream's instances and items; see `hotpath::stream`.
#[proc_macro]
pub fn stream(input: TokenStream) -> TokenStream {
    wrap(input, wrap_spec::STREAM)
}

/// Measures the messages through a channel; see `hotpath::channel`.
#[proc_macro]
pub fn channel(input: TokenStream) -> TokenStream {
    wrap(input, wrap_spec::CHANNEL)
}

/// Measures acquisitions of a mutex; see `hotpath::mutex`.
#[proc_macro]
pub fn mutex(input: TokenStream) -> TokenStream {
    wrap(input, wrap_spec::MUTEX)
}

/// Measures reads and writes of an RwLock; see `hotpath::rw_lock`.
#[proc_macro]
pub fn rw_lock(input: TokenStream) -> TokenStream {
    wrap(input, wrap_spec::RW_LOCK)
}
