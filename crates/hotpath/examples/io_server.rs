//! A TCP server that wraps every accepted connection at one `io!` call. All the
//! connections accumulate into a single report row whose `Inst` column is the
//! number of connections, so profiler memory does not grow with them.
//!
//! cargo run -p hotpath --example io_server --features hotpath

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread;

const CONNECTIONS: usize = 50;
const REQUEST: usize = 32;
const RESPONSE: usize = 64;

#[hotpath::main]
fn main() -> std::io::Result<()> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    let server = thread::spawn(move || -> std::io::Result<()> {
        let mut handlers = Vec::new();
        for stream in listener.incoming().take(CONNECTIONS) {
            let mut conn = hotpath::io!(stream?, label = "conn");
            handlers.push(thread::spawn(move || -> std::io::Result<()> {
                let mut request = [0u8; REQUEST];
                conn.read_exact(&mut request)?;
                conn.write_all(&[request[0]; RESPONSE])?;
                Ok(())
            }));
        }
        for handler in handlers {
            handler.join().map_err(|_| std::io::Error::other("handler panicked"))??;
        }
        Ok(())
    });

    for i in 0..CONNECTIONS {
        let mut client = TcpStream::connect(addr)?;
        client.write_all(&[i as u8; REQUEST])?;
        let mut response = Vec::new();
        client.read_to_end(&mut response)?;
        assert_eq!(response, [i as u8; RESPONSE]);
    }
    server.join().map_err(|_| std::io::Error::other("server panicked"))??;
    println!("served {CONNECTIONS} connections");
    Ok(())
}
