import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteInfo } from '../hooks/useSiteInfo.js';

const SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
/** A script that neither loads nor fails within this time counts as failed. */
const LOAD_TIMEOUT_MS = 15_000;

interface TurnstileApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      theme: 'light' | 'dark';
      callback(token: string): void;
      'expired-callback'(): void;
      'error-callback'(): void;
    },
  ): string;
  remove(widgetId: string): void;
  reset(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

let scriptLoad: Promise<TurnstileApi> | null = null;

/** Loads Cloudflare's script once per page; a failed load may be tried again by a later widget. */
function loadTurnstile(): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  scriptLoad ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement('script');
    const fail = () => {
      window.clearTimeout(timer);
      script.remove();
      scriptLoad = null;
      reject(new Error('turnstile'));
    };
    const timer = window.setTimeout(fail, LOAD_TIMEOUT_MS);
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => {
      window.clearTimeout(timer);
      if (window.turnstile) resolve(window.turnstile);
      else fail();
    };
    script.onerror = fail;
    document.head.appendChild(script);
  });
  return scriptLoad;
}

export interface TurnstileGate {
  /** True when the site asks for the check (`turnstile_check`). */
  required: boolean;
  /** The token to send as `?turnstile=`; '' until the visitor has passed. */
  token: string;
  setToken(token: string): void;
  /**
   * The token for one request. The server checks every token with Cloudflare, which accepts it
   * once, so the widget is reset for the next action.
   */
  spend(): string;
  /** Counts the spent tokens; the widget resets when it changes. */
  spent: number;
  /**
   * True when the form may send its request: no check, or a token. Otherwise it tells the visitor
   * the check is still running (spec §8) and answers false.
   */
  ready(): boolean;
}

export function useTurnstileGate(onWaiting: () => void): TurnstileGate {
  const { turnstile_check: required } = useSiteInfo();
  const [token, setToken] = useState('');
  const [spent, setSpent] = useState(0);
  const ready = useCallback(() => {
    if (!required || token) return true;
    onWaiting();
    return false;
  }, [required, token, onWaiting]);
  const spend = useCallback(() => {
    if (token) {
      setToken('');
      setSpent((count) => count + 1);
    }
    return token;
  }, [token]);
  return { required, token, setToken, ready, spend, spent };
}

interface TurnstileProps {
  gate: TurnstileGate;
  /**
   * What stands in for the widget. `checking` (the sign-up and reset forms): the "checking" note
   * until the widget is up, the widget's box hidden meanwhile. `failure` (dialogs): the widget's
   * box at once, a warning only when the script cannot be loaded, nothing without a site key.
   */
  fallback?: 'checking' | 'failure';
}

/** Cloudflare Turnstile, shown only when the site turns it on (`turnstile_check`). */
export function Turnstile({ gate, fallback = 'checking' }: TurnstileProps) {
  const { t } = useTranslation();
  const { turnstile_site_key: siteKey } = useSiteInfo();
  const mode = useTheme().palette.mode;
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<string | undefined>(undefined);
  const [state, setState] = useState<'loading' | 'rendered' | 'failed'>('loading');
  const { required, setToken, spent } = gate;

  // A spent token is not accepted twice: a fresh challenge for the next action.
  useEffect(() => {
    if (spent > 0 && widget.current !== undefined) window.turnstile?.reset(widget.current);
  }, [spent]);

  useEffect(() => {
    if (!required || !siteKey) return;
    let widgetId: string | undefined;
    let cancelled = false;
    loadTurnstile().then(
      (api) => {
        if (cancelled || !container.current) return;
        widgetId = api.render(container.current, {
          sitekey: siteKey,
          theme: mode,
          callback: (token) => setToken(token),
          'expired-callback': () => setToken(''),
          'error-callback': () => setToken(''),
        });
        widget.current = widgetId;
        setState('rendered');
      },
      () => !cancelled && setState('failed'),
    );
    return () => {
      cancelled = true;
      if (widgetId !== undefined) window.turnstile?.remove(widgetId);
      widget.current = undefined;
      setState('loading');
    };
  }, [required, siteKey, mode, setToken]);

  if (!required) return null;
  if (fallback === 'failure') {
    if (!siteKey) return null;
    return (
      <Box>
        <Box ref={container} sx={{ minHeight: 65 }} />
        {state === 'failed' && <Alert severity="warning">{t('turnstile.failed')}</Alert>}
      </Box>
    );
  }
  const rendered = state === 'rendered';
  return (
    <Box data-testid="turnstile">
      <Box ref={container} sx={{ display: rendered ? 'flex' : 'none', justifyContent: 'center', minHeight: 65 }} />
      {!rendered && (
        <Alert severity="info" data-testid="turnstile-checking">
          {t('turnstile.checking')}
        </Alert>
      )}
    </Box>
  );
}
