/**
 * Reads QR codes from the phone's camera: the browser's BarcodeDetector where it has one that reads
 * QR codes (Android Chrome, Safari 17+, macOS), else jsQR on the frame's pixels (loaded only then).
 * `start()` answers a stop function; each code read is handed to `onCode`.
 */

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats(): Promise<string[]>;
}

type Decode = (canvas: HTMLCanvasElement, video: HTMLVideoElement) => Promise<string | null>;

async function nativeDecoder(): Promise<Decode | null> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  try {
    if (!(await Detector.getSupportedFormats()).includes('qr_code')) return null;
    const detector = new Detector({ formats: ['qr_code'] });
    return async (_canvas, video) => (await detector.detect(video))[0]?.rawValue ?? null;
  } catch {
    return null;
  }
}

async function jsqrDecoder(): Promise<Decode> {
  const { default: jsQR } = await import('jsqr');
  return async (canvas, video) => {
    const width = video.videoWidth;
    const height = video.videoHeight;
    if (!width || !height) return null;
    // Frames are read at most 640 px wide: plenty for a ticket held up to the camera, and fast.
    const scale = Math.min(1, 640 / width);
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) return null;
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(image.data, image.width, image.height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
  };
}

export type CameraError = 'unavailable' | 'denied' | 'failed';

export async function startCamera(video: HTMLVideoElement, onCode: (text: string) => void): Promise<{ stop: () => void; decoder: 'native' | 'jsqr' }> {
  if (!navigator.mediaDevices?.getUserMedia) throw Object.assign(new Error('This browser gives no camera to this page.'), { kind: 'unavailable' as CameraError });
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false });
  } catch (e) {
    const denied = e instanceof DOMException && (e.name === 'NotAllowedError' || e.name === 'SecurityError');
    throw Object.assign(new Error(denied ? 'The camera was not allowed: allow it in the browser’s site settings.' : 'No camera could be opened.'), { kind: (denied ? 'denied' : 'failed') as CameraError });
  }
  video.srcObject = stream;
  video.setAttribute('playsinline', 'true');
  video.muted = true;
  await video.play().catch(() => undefined);
  const native = await nativeDecoder();
  const decode = native ?? (await jsqrDecoder());
  const canvas = document.createElement('canvas');
  let stopped = false;
  let timer: number | undefined;
  const tick = async () => {
    if (stopped) return;
    try {
      const text = await decode(canvas, video);
      if (text && !stopped) onCode(text);
    } catch {
      /* a frame that could not be read: the next one */
    }
    if (!stopped) timer = window.setTimeout(tick, 150);
  };
  timer = window.setTimeout(tick, 150);
  return {
    decoder: native ? 'native' : 'jsqr',
    stop() {
      stopped = true;
      window.clearTimeout(timer);
      stream.getTracks().forEach((t) => t.stop());
      video.srcObject = null;
    },
  };
}
