import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { BodyLengthError } from "./body-length";

export interface StreamedPutParams {
  Bucket: string;
  Key: string;
  ContentType?: string;
}

export interface StreamedPutOptions {
  /** Bytes per part; S3 wants at least 5 MiB for every part but the last. */
  partSize: number;
  /** Parts being sent at once while the next one fills. */
  partsInFlight: number;
  /** When given, a body of any other length fails the put (and stores nothing). */
  contentLength?: number;
}

/**
 * Streams `body` into one S3 object and returns its size. A body shorter than one part goes up with
 * a single PutObject; a longer one as a multipart upload whose parts are sent while the next fills.
 *
 * Memory is at most `partsInFlight + 1` buffers of `partSize`, allocated by this upload and reused
 * part after part; a body shorter than one part is held once, at its own size. (lib-storage's `Upload` allocates a fresh buffer per part: 100 MiB of short-lived
 * external memory per 100 MiB file, and V8 answers that with full collections of the whole app's
 * heap — in the upload benchmark they took about a third of the app's CPU.)
 *
 * Nothing is stored unless the whole body arrived: the object appears only when the multipart upload
 * completes. On any failure — the body's stream, S3, or the length check — the upload is aborted so
 * no parts are left behind, the body is released, and the error is thrown.
 */
export async function putStreamed(client: S3Client, params: StreamedPutParams, body: AsyncIterable<Uint8Array>, options: StreamedPutOptions): Promise<number> {
  const { partSize, partsInFlight, contentLength } = options;
  const { Bucket, Key } = params;
  let created: Promise<string> | undefined;
  const uploadId = () =>
    (created ??= client.send(new CreateMultipartUploadCommand(params)).then(({ UploadId }) => {
      if (!UploadId) throw new Error("S3 returned no UploadId");
      return UploadId;
    }));

  const sending = new Set<Promise<void>>();
  const spare: Buffer[] = [];
  const parts: CompletedPart[] = [];
  let failure: { error: unknown } | undefined;
  let partNumber = 0;

  const uploadPart = async (buffer: Buffer, length: number, PartNumber: number) => {
    try {
      const UploadId = await uploadId();
      const { ETag } = await client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: buffer.subarray(0, length), ContentLength: length }));
      parts.push({ PartNumber, ETag });
      spare.push(buffer);
    } catch (error) {
      failure ??= { error };
    }
  };
  const send = (buffer: Buffer, length: number) => {
    const task: Promise<void> = uploadPart(buffer, length, ++partNumber).finally(() => sending.delete(task));
    sending.add(task);
  };
  /** Waits until another part may be sent; throws the first failure of a part. */
  const room = async () => {
    while (sending.size >= partsInFlight && !failure) await Promise.race(sending);
    if (failure) throw failure.error;
  };

  let total = 0;
  // Until they fill a part, the chunks are kept as they came: a body shorter than a part (most
  // files) never gets a part buffer, only its own size once, for the PutObject.
  let head: Uint8Array[] | null = [];
  let headBytes = 0;
  let current: Buffer | null = null;
  let filled = 0;
  try {
    for await (const chunk of body) {
      if (failure) throw failure.error; // S3 gave up: stop reading the body
      total += chunk.length;
      if (contentLength !== undefined && total > contentLength) throw new BodyLengthError(contentLength, `more than ${contentLength}`);
      if (head) {
        if (headBytes + chunk.length < partSize) {
          head.push(chunk);
          headBytes += chunk.length;
          continue;
        }
        current = Buffer.allocUnsafe(partSize);
        for (const piece of head) {
          current.set(piece, filled);
          filled += piece.length;
        }
        head = null;
      }
      for (let offset = 0; offset < chunk.length; ) {
        current ??= spare.pop() ?? Buffer.allocUnsafe(partSize);
        const take = Math.min(chunk.length - offset, partSize - filled);
        current.set(offset === 0 && take === chunk.length ? chunk : chunk.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
        if (filled === partSize) {
          await room();
          send(current, filled);
          current = null;
          filled = 0;
        }
      }
    }
    if (contentLength !== undefined && total !== contentLength) throw new BodyLengthError(contentLength, String(total));

    if (head) {
      await client.send(new PutObjectCommand({ ...params, Body: Buffer.concat(head, headBytes), ContentLength: headBytes }));
      return total;
    }
    if (current && filled > 0) {
      await room();
      send(current, filled);
    }
    while (sending.size > 0) await Promise.race(sending);
    if (failure) throw failure.error;
    parts.sort((a, b) => a.PartNumber! - b.PartNumber!);
    await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: await uploadId(), MultipartUpload: { Parts: parts } }));
    return total;
  } catch (error) {
    await Promise.allSettled([...sending]);
    const UploadId = await created?.catch(() => undefined);
    if (UploadId) await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
    throw error;
  }
}
