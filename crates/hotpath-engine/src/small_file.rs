//! Reading the kernel's small text files (`/proc`, `/sys`) cheaply.

/// The whole text of a small file such as `/proc/self/statm` or a thread's `stat`, read
/// into a stack buffer until end of file: no size query and no growing probe reads,
/// which `fs::read_to_string` makes: 4 system calls for a 300-byte `stat` (open, two reads,
/// close) instead of 9.
/// Text past `N` bytes, or not UTF-8, is an error.
pub(crate) fn read_small<const N: usize>(path: &str) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind, Read};
    let mut file = std::fs::File::open(path)?;
    let mut buf = [0u8; N];
    let mut len = 0;
    loop {
        if len == N {
            return Err(Error::new(ErrorKind::InvalidData, format!("{path} is longer than {N} bytes")));
        }
        match file.read(&mut buf[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    String::from_utf8(buf[..len].to_vec()).map_err(|e| Error::new(ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod tests {
    #[test]
    fn small_files_read_whole_and_long_ones_fail() {
        let stat = super::read_small::<1024>("/proc/self/stat").unwrap();
        assert!(stat.starts_with(&format!("{} (", std::process::id())) && stat.ends_with('\n'), "{stat}");
        assert_eq!(super::read_small::<1024>("/proc/self/stat").unwrap().split(' ').count(), stat.split(' ').count());
        let too_long = super::read_small::<8>("/proc/self/stat").unwrap_err();
        assert_eq!(too_long.kind(), std::io::ErrorKind::InvalidData);
        assert!(super::read_small::<64>("/proc/self/no-such-file").is_err());
    }
}
