//! A table's memory: an anonymous mapping that Linux is asked to back with transparent huge
//! pages (2 MB on x86-64), so that the search's random reads into a 250 MB table miss the
//! TLB far less often (Korf's 100 with the 7-8 tables: about 15 % faster, README "The
//! 24-puzzle solved optimally"). Where the mapping cannot be made, the bytes live on the heap.

use std::ops::{Deref, DerefMut};

/// A table's bytes, zeroed when made: an anonymous memory map advised for huge pages, or a
/// heap vector where the map fails.
pub(crate) enum Bytes {
    /// An anonymous map of at least one byte (a map cannot be empty) and the length in use.
    Mapped(memmap2::MmapMut, usize),
    Heap(Vec<u8>),
}

impl Bytes {
    /// `len` zero bytes; `None` when the memory is not there.
    pub(crate) fn zeroed(len: usize) -> Option<Self> {
        match memmap2::MmapMut::map_anon(len.max(1)) {
            Ok(map) => {
                // Advice only: a kernel without transparent huge pages keeps small ones.
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                Some(Self::Mapped(map, len))
            }
            Err(_) => {
                let mut bytes = Vec::new();
                bytes.try_reserve_exact(len).ok()?;
                bytes.resize(len, 0);
                Some(Self::Heap(bytes))
            }
        }
    }

    /// A copy of `bytes`; `None` when the memory is not there.
    pub(crate) fn copied(bytes: &[u8]) -> Option<Self> {
        let mut out = Self::zeroed(bytes.len())?;
        out.copy_from_slice(bytes);
        Some(out)
    }
}

impl Deref for Bytes {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        match self {
            Self::Mapped(map, len) => &map[..*len],
            Self::Heap(bytes) => bytes,
        }
    }
}

impl DerefMut for Bytes {
    #[inline]
    fn deref_mut(&mut self) -> &mut [u8] {
        match self {
            Self::Mapped(map, len) => &mut map[..*len],
            Self::Heap(bytes) => bytes,
        }
    }
}

impl Clone for Bytes {
    /// A copy in a new map, or on the heap where the map fails.
    fn clone(&self) -> Self {
        Self::copied(self).unwrap_or_else(|| Self::Heap(self.to_vec()))
    }
}

impl PartialEq for Bytes {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Bytes {}

impl std::fmt::Debug for Bytes {
    /// The length only: a table's bytes are millions.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bytes({} bytes)", self.len())
    }
}
