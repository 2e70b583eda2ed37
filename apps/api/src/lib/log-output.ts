/**
 * Where the server's log lines go: standard output, as a Node stream. Not pino's default
 * destination (sonic-boom writing to fd 1): when the reader of the output goes away (a pipe
 * closed by a supervisor that is itself stopping), its flushSync at exit retries the write
 * forever on EPIPE, which blocked the process in `process.exit()` and made it deaf to every later
 * SIGTERM (reproduced: `npm start | cat`, SIGTERM to the group, the pipe closed). A write to a
 * closed pipe here is an 'error' event that is dropped: without a reader, there is nobody to tell.
 */
let guarded = false;
export function logOutput(): NodeJS.WritableStream {
  if (!guarded) {
    guarded = true;
    const ignoreClosed = (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    };
    process.stdout.on('error', ignoreClosed);
    process.stderr.on('error', ignoreClosed);
  }
  return process.stdout;
}
