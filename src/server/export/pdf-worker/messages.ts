import type { ExportInput } from '../format';

// What the server and a PDF worker say to each other. Jobs are numbered by the server.

export type ToWorker =
  | { type: 'render'; jobId: number; input: ExportInput }
  | { type: 'photo'; jobId: number; requestId: number; bytes: Uint8Array | null };

export type FromWorker =
  | { type: 'chunk'; jobId: number; bytes: Uint8Array }
  | { type: 'end'; jobId: number }
  | { type: 'error'; jobId: number; message: string }
  | { type: 'photo'; jobId: number; requestId: number; key: string };
