/**
 * The row count of a Parquet file, read from its footer (FileMetaData, Thrift compact protocol,
 * field 3 `num_rows`), without a Parquet library: the manifest states each file's rows.
 */
import { openSync, readSync, fstatSync, closeSync } from 'node:fs'

class Reader {
  pos = 0
  constructor(private readonly b: Buffer) {}
  byte(): number {
    if (this.pos >= this.b.length) throw new Error('Parquet footer ends early')
    return this.b[this.pos++]
  }
  varint(): bigint {
    let shift = 0n
    let out = 0n
    for (;;) {
      const c = this.byte()
      out |= BigInt(c & 0x7f) << shift
      if (!(c & 0x80)) return out
      shift += 7n
    }
  }
  zigzag(): bigint { const v = this.varint(); return (v >> 1n) ^ -(v & 1n) }
  skip(type: number): void {
    switch (type) {
      case 1: case 2: return // booleans in a field header carry their value
      case 3: this.pos++; return
      case 4: case 5: case 6: this.varint(); return
      case 7: this.pos += 8; return
      case 8: { const n = Number(this.varint()); this.pos += n; return }
      case 9: case 10: {
        const h = this.byte()
        const size = h >> 4 === 15 ? Number(this.varint()) : h >> 4
        for (let i = 0; i < size; i++) this.skipElement(h & 0x0f)
        return
      }
      case 11: {
        const size = Number(this.varint())
        if (size === 0) return
        const kv = this.byte()
        for (let i = 0; i < size; i++) { this.skipElement(kv >> 4); this.skipElement(kv & 0x0f) }
        return
      }
      case 12: this.struct(() => false); return
      default: throw new Error(`Parquet footer: unknown Thrift type ${type}`)
    }
  }
  /** A list or map element: a boolean there is one byte. */
  private skipElement(type: number) { if (type === 1 || type === 2) this.pos++; else this.skip(type) }
  /** Reads a struct's fields; `visit` returns true when it consumed the field's value. */
  struct(visit: (id: number, type: number) => boolean): void {
    let last = 0
    for (;;) {
      const h = this.byte()
      const type = h & 0x0f
      if (type === 0) return
      const delta = h >> 4
      const id = delta ? last + delta : Number(this.zigzag())
      last = id
      if (!visit(id, type)) this.skip(type)
    }
  }
}

export function parquetRowCount(file: string): number {
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    const tail = Buffer.alloc(8)
    readSync(fd, tail, 0, 8, size - 8)
    if (tail.toString('latin1', 4) !== 'PAR1') throw new Error(`${file} is not a Parquet file`)
    const len = tail.readUInt32LE(0)
    const meta = Buffer.alloc(len)
    readSync(fd, meta, 0, len, size - 8 - len)
    const r = new Reader(meta)
    let rows: bigint | undefined
    r.struct((id, type) => {
      if (id === 3 && type === 6) { rows = r.zigzag(); return true }
      return false
    })
    if (rows === undefined) throw new Error(`${file}: no row count in the Parquet footer`)
    return Number(rows)
  } finally { closeSync(fd) }
}
