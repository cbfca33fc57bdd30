//! The reqwest adapters: [`ReqwestHttpMiddleware`] as a reqwest-middleware middleware
//! (0.4 over reqwest 0.12, 0.5 over reqwest 0.13), and `http!` on reqwest's `Client`.
//! The call is timed from the middleware to the response head; reqwest-middleware
//! boxes each call's future itself.

use super::call::{Call, Client, Outcome, Target};
use super::instrument::{InstrumentHttpClient, ReqwestHttpMiddleware};

/// The call's endpoint, from reqwest's parsed URL.
fn target<'a>(method: &'a str, url: &'a url_shim::Url) -> Target<'a> {
    Target { method, scheme: url.scheme(), host: url.host_str().unwrap_or(""), port: url.port(), path: url.path() }
}

/// Both reqwest versions use the same `url` crate.
mod url_shim {
    #[cfg(feature = "reqwest-0-12")]
    pub(super) use reqwest012::Url;
    #[cfg(all(feature = "reqwest-0-13", not(feature = "reqwest-0-12")))]
    pub(super) use reqwest013::Url;
}

macro_rules! reqwest_adapter {
    ($reqwest:ident, $middleware:ident) => {
        #[async_trait::async_trait]
        impl $middleware::Middleware for ReqwestHttpMiddleware {
            async fn handle(
                &self,
                request: $reqwest::Request,
                extensions: &mut http::Extensions,
                next: $middleware::Next<'_>,
            ) -> $middleware::Result<$reqwest::Response> {
                let call = Call::begin(
                    Client::Reqwest,
                    self.label.as_deref(),
                    &target(request.method().as_str(), request.url()),
                );
                let result = next.run(request, extensions).await;
                if let Some(call) = call {
                    call.finish(match &result {
                        Ok(response) => {
                            Outcome::Response { status: response.status().as_u16(), length: response.content_length() }
                        }
                        Err(_) => Outcome::Failed,
                    });
                }
                result
            }
        }

        impl InstrumentHttpClient for $reqwest::Client {
            type Output = $middleware::ClientWithMiddleware;
            fn instrument_http(self, label: Option<String>) -> Self::Output {
                let middleware = ReqwestHttpMiddleware { label };
                $middleware::ClientBuilder::new(self).with(middleware).build()
            }
        }
    };
}

#[cfg(feature = "reqwest-0-12")]
reqwest_adapter!(reqwest012, reqwest_middleware04);
#[cfg(feature = "reqwest-0-13")]
reqwest_adapter!(reqwest013, reqwest_middleware05);
