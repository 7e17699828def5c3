//! Helpers of the hand-written codecs: the protos' field keys, read from the generated
//! types, and the varint and length-delimited pieces of the wire format.

use prost::Message;

/// The key (`tag << 3 | wire type`, as on the wire) of the one field set in `probe`: a
/// message of the generated types with exactly that field set, so the field numbers and
/// wire types of a hand-written codec come from the protos, not retyped.
pub(crate) fn key_of(probe: impl Message) -> u64 {
    let bytes = probe.encode_to_vec();
    let mut buf = &bytes[..];
    prost::encoding::decode_varint(&mut buf).expect("a probe message sets a field")
}

/// Appends the field key `key` (see [`key_of`]).
#[inline]
pub(crate) fn put_key(key: u64, out: &mut Vec<u8>) {
    put_varint(key, out);
}

/// Appends the varint `v` (prost's encoding; one byte without its loop).
#[inline]
pub(crate) fn put_varint(v: u64, out: &mut Vec<u8>) {
    if v < 0x80 {
        out.push(v as u8);
    } else {
        prost::encoding::encode_varint(v, out);
    }
}

/// Bytes of a field key or length.
#[inline]
pub(crate) fn varint_len(v: u64) -> usize {
    prost::encoding::encoded_len_varint(v)
}

/// Reads one length-delimited field's body (the key already read): its length, then as
/// many bytes (None when the buffer is shorter: not a valid message).
#[inline]
pub(crate) fn take_len<'a>(buf: &mut &'a [u8]) -> Option<&'a [u8]> {
    let n = prost::encoding::decode_varint(buf).ok()?;
    let n = usize::try_from(n).ok()?;
    if n > buf.len() {
        return None;
    }
    let (body, rest) = buf.split_at(n);
    *buf = rest;
    Some(body)
}

/// The body of `data` when it is exactly one field of key `key`, length-delimited (e.g. a
/// top-level request's game).
pub(crate) fn only_field(data: &[u8], key: u64) -> Option<&[u8]> {
    let mut buf = data;
    if prost::encoding::decode_varint(&mut buf).ok()? != key {
        return None;
    }
    let body = take_len(&mut buf)?;
    buf.is_empty().then_some(body)
}
