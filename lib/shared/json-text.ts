/**
 * An answer already encoded as JSON — the hot template reads have PostgreSQL write it, stored
 * manifests spliced in as the text they were stored as — which the pipeline (lib/http/route.ts)
 * sends as it is instead of running JSON.stringify. `T` is the wire shape the text encodes, so a
 * handler can return one only where that shape is its endpoint's answer; outside production the
 * pipeline decodes it and checks it against the response schema like any other answer.
 */
export class JsonText<T> {
  /** Type only: the shape `text` encodes. */
  declare readonly wire: T;

  constructor(readonly text: string) {}

  /** The decoded value, for callers that need the object rather than the encoding. */
  value(): T {
    return JSON.parse(this.text) as T;
  }
}
