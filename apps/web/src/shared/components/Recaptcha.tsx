import { Text } from '@mantine/core';
import { useEffect, useRef } from 'react';

declare global {
  interface Window {
    grecaptcha?: {
      ready(cb: () => void): void;
      render(el: HTMLElement, options: { sitekey: string; callback: (token: string) => void; 'expired-callback': () => void }): number;
    };
  }
}

const SCRIPT_URL = 'https://www.google.com/recaptcha/api.js?render=explicit';
let loading: Promise<void> | undefined;

function loadScript() {
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => window.grecaptcha?.ready(() => resolve());
    script.onerror = () => {
      loading = undefined;
      reject(new Error('reCAPTCHA could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * Google's reCAPTCHA checkbox, shown only when the server has a site key (sign-up and password
 * reset then require its token). `onToken` receives the answer, or '' when it expires.
 */
export function Recaptcha({ siteKey, onToken, error }: { siteKey: string; onToken: (token: string) => void; error?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const rendered = useRef(false);
  useEffect(() => {
    loadScript()
      .then(() => {
        if (!box.current || rendered.current || !window.grecaptcha) return;
        rendered.current = true;
        window.grecaptcha.render(box.current, { sitekey: siteKey, callback: onToken, 'expired-callback': () => onToken('') });
      })
      .catch(() => onToken(''));
  }, [siteKey, onToken]);
  return (
    <div>
      <div ref={box} data-testid="recaptcha" />
      {error && (
        <Text c="red" size="xs" mt={4}>
          {error}
        </Text>
      )}
    </div>
  );
}
