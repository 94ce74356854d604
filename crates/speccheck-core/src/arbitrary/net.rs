//! IP and socket addresses: every address of each family, built from
//! their integers, so they shrink toward `0.0.0.0` / `::` and port 0.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};

use super::Arbitrary;
use super::leaf::opaque_debug;
use crate::encode::{EncodeError, Encoder};
use crate::span::TypeInfo;
use crate::test_case::TestCase;

impl Arbitrary for Ipv4Addr {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        Ipv4Addr::from_bits(tc.draw_int(0, u32::MAX))
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_int(self.to_bits(), 0, u32::MAX)
    }
}

impl Arbitrary for Ipv6Addr {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        Ipv6Addr::from_bits(tc.draw_int(0, u128::MAX))
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_int(self.to_bits(), 0, u128::MAX)
    }
}

impl Arbitrary for IpAddr {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        match tc.draw_index(2) {
            0 => IpAddr::V4(Ipv4Addr::draw(tc)),
            _ => IpAddr::V6(Ipv6Addr::draw(tc)),
        }
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        match self {
            IpAddr::V4(a) => {
                enc.write_index(0, 2)?;
                a.encode(enc)
            }
            IpAddr::V6(a) => {
                enc.write_index(1, 2)?;
                a.encode(enc)
            }
        }
    }
}

impl Arbitrary for SocketAddrV4 {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        let ip = Ipv4Addr::draw(tc);
        SocketAddrV4::new(ip, tc.draw_int(0, u16::MAX))
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        self.ip().encode(enc)?;
        enc.write_int(self.port(), 0, u16::MAX)
    }
}

impl Arbitrary for SocketAddrV6 {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        let ip = Ipv6Addr::draw(tc);
        let port = tc.draw_int(0, u16::MAX);
        let flowinfo = tc.draw_int(0, u32::MAX);
        SocketAddrV6::new(ip, port, flowinfo, tc.draw_int(0, u32::MAX))
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        self.ip().encode(enc)?;
        enc.write_int(self.port(), 0, u16::MAX)?;
        enc.write_int(self.flowinfo(), 0, u32::MAX)?;
        enc.write_int(self.scope_id(), 0, u32::MAX)
    }
}

impl Arbitrary for SocketAddr {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        match tc.draw_index(2) {
            0 => SocketAddr::V4(SocketAddrV4::draw(tc)),
            _ => SocketAddr::V6(SocketAddrV6::draw(tc)),
        }
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        match self {
            SocketAddr::V4(a) => {
                enc.write_index(0, 2)?;
                a.encode(enc)
            }
            SocketAddr::V6(a) => {
                enc.write_index(1, 2)?;
                a.encode(enc)
            }
        }
    }
}

opaque_debug!(Ipv4Addr);
opaque_debug!(Ipv6Addr);
opaque_debug!(IpAddr);
opaque_debug!(SocketAddrV4);
opaque_debug!(SocketAddrV6);
opaque_debug!(SocketAddr);
