//! The ureq 3 adapter: [`UreqHttpMiddleware`] as a ureq middleware, and `http!` on an
//! agent's `ConfigBuilder`. With `http_status_as_error` (ureq's default) a status of
//! 400 or more arrives as `Error::StatusCode`; it is counted as that status.

use ureq::config::ConfigBuilder;
use ureq::http;
use ureq::middleware::{Middleware, MiddlewareNext};
use ureq::typestate::AgentScope;
use ureq::{Body, Error, SendBody};

use super::call::{Call, Client, Outcome, Target};
use super::instrument::{InstrumentHttpClient, UreqHttpMiddleware};

impl Middleware for UreqHttpMiddleware {
    fn handle(&self, request: http::Request<SendBody>, next: MiddlewareNext) -> Result<http::Response<Body>, Error> {
        let uri = request.uri();
        let port = uri.port_u16().filter(|p| Some(*p) != default_port(uri.scheme_str()));
        let target = Target {
            method: request.method().as_str(),
            scheme: uri.scheme_str().unwrap_or("http"),
            host: uri.host().unwrap_or(""),
            port,
            path: uri.path(),
        };
        let call = Call::begin(Client::Ureq, self.label.as_deref(), &target);
        let result = next.handle(request);
        if let Some(call) = call {
            call.finish(match &result {
                Ok(response) => Outcome::Response { status: response.status().as_u16(), length: length(response) },
                Err(Error::StatusCode(status)) => Outcome::Response { status: *status, length: None },
                Err(_) => Outcome::Failed,
            });
        }
        result
    }
}

fn default_port(scheme: Option<&str>) -> Option<u16> {
    match scheme {
        Some("http") => Some(80),
        Some("https") => Some(443),
        _ => None,
    }
}

fn length(response: &http::Response<Body>) -> Option<u64> {
    response.headers().get(http::header::CONTENT_LENGTH)?.to_str().ok()?.trim().parse().ok()
}

impl InstrumentHttpClient for ConfigBuilder<AgentScope> {
    type Output = Self;
    fn instrument_http(self, label: Option<String>) -> Self {
        self.middleware(UreqHttpMiddleware { label })
    }
}
