// The few parts of an ONNX model (a protobuf message) that the build edits, read and written at
// the level of protobuf's wire format. Every field is kept as the bytes it came in, and only the
// graphs' nodes are taken apart, so a model written back is the model read, byte for byte, but
// for the nodes changed. Field numbers are those of onnx.proto (ModelProto, GraphProto, NodeProto,
// AttributeProto, TensorProto).

/** One field of a message: its number, wire type, its bytes as read (tag and all) and, for length-delimited fields, its payload. */
export interface WireField {
  no: number;
  type: number;
  bytes: Uint8Array;
  payload: Uint8Array;
  /** the value of a varint field */
  varint: bigint;
}

export const MODEL = { graph: 7 } as const;
export const GRAPH = { node: 1, output: 12 } as const;
export const NODE = { input: 1, output: 2, name: 3, opType: 4, attribute: 5 } as const;
export const ATTRIBUTE = { name: 1, i: 3, t: 5, g: 6 } as const;
export const TENSOR = { dims: 1, dataType: 2, int64Data: 7, rawData: 9 } as const;
/** TensorProto's data type for int64, and Cast's `to` for bool */
export const INT64 = 7;
export const BOOL = 9;

function readVarint(bytes: Uint8Array, at: number): [bigint, number] {
  let value = 0n;
  let shift = 0n;
  for (;;) {
    if (at >= bytes.length) throw new Error('the model ends inside a number');
    const byte = bytes[at++]!;
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [value, at];
    shift += 7n;
  }
}

function writeVarint(value: bigint): number[] {
  const out: number[] = [];
  let v = BigInt.asUintN(64, value);
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return out;
}

/** The fields of a message, in order. */
export function readFields(bytes: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  while (at < bytes.length) {
    const start = at;
    const [tag, afterTag] = readVarint(bytes, at);
    const no = Number(tag >> 3n);
    const type = Number(tag & 7n);
    let payload: Uint8Array = new Uint8Array(0);
    let varint = 0n;
    at = afterTag;
    if (type === 0) [varint, at] = readVarint(bytes, at);
    else if (type === 1) at += 8;
    else if (type === 5) at += 4;
    else if (type === 2) {
      const [length, afterLength] = readVarint(bytes, at);
      payload = bytes.subarray(afterLength, afterLength + Number(length));
      at = afterLength + Number(length);
    } else throw new Error(`the model has a field of wire type ${type}, which ONNX does not use`);
    if (at > bytes.length) throw new Error('the model ends inside a field');
    fields.push({ no, type, bytes: bytes.subarray(start, at), payload, varint });
  }
  return fields;
}

/** A length-delimited field: a string, bytes or a message. */
export function lengthField(no: number, payload: Uint8Array | string): Uint8Array {
  const body = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
  return concat([Uint8Array.from([...writeVarint(BigInt((no << 3) | 2)), ...writeVarint(BigInt(body.length))]), body]);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const text = (payload: Uint8Array): string => new TextDecoder().decode(payload);

/** The strings of every `no` field of a message. */
export function strings(fields: readonly WireField[], no: number): string[] {
  return fields.filter((f) => f.no === no).map((f) => text(f.payload));
}

/** The values of a repeated integer field, packed or not. */
export function integers(fields: readonly WireField[], no: number): bigint[] {
  const values: bigint[] = [];
  for (const f of fields.filter((x) => x.no === no)) {
    if (f.type === 0) values.push(BigInt.asIntN(64, f.varint));
    else
      for (let at = 0; at < f.payload.length; ) {
        const [v, next] = readVarint(f.payload, at);
        values.push(BigInt.asIntN(64, v));
        at = next;
      }
  }
  return values;
}
