import type { Config } from '../../config';

/** What a translation run asks of a provider. */
export interface TranslateRequest {
  /** HTML fragments: whole blocks with `<b>`, `<i>`, `<s>` and `<a href="#qN">` marks, and empty `<span data-q>` placeholders to keep as they are. */
  texts: string[];
  /** Language code of the texts; `auto` lets the provider detect it. */
  source: string;
  target: string;
  /** Guidance for providers that accept it (tone, terminology), as plain text. */
  instructions?: string;
}

/** A machine translation service. It translates HTML fragments and keeps their tags (LibreTranslate's `format: "html"`). */
export interface TranslationProvider {
  readonly name: string;
  /** Whether `instructions` are passed on; the run reports it when they are dropped. */
  readonly acceptsInstructions: boolean;
  /** One translation per text, in order. */
  translate(req: TranslateRequest): Promise<string[]>;
}

/** A provider refused or failed; the message is shown as the run's error. */
export class ProviderError extends Error {
  constructor(
    readonly code: 'PROVIDER_UNREACHABLE' | 'PROVIDER_ERROR' | 'PROVIDER_BAD_ANSWER',
    message: string,
  ) {
    super(message);
  }
}

const REQUEST_TIMEOUT_MS = 60_000;

/**
 * LibreTranslate (https://libretranslate.com, self-hostable): `POST /translate` with
 * `{q, source, target, format: "html", api_key?}`, where `q` may be an array. HTML lets
 * the engine see whole sentences and move the marks with the words they belong to. It has no
 * parameter for instructions, so they are not sent.
 */
export class LibreTranslateProvider implements TranslationProvider {
  readonly name = 'libretranslate';
  readonly acceptsInstructions = false;

  constructor(
    private baseUrl: string,
    private apiKey?: string,
  ) {}

  async translate(req: TranslateRequest): Promise<string[]> {
    if (req.texts.length === 0) return [];
    const url = `${this.baseUrl.replace(/\/+$/, '')}/translate`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          q: req.texts,
          source: req.source,
          target: req.target,
          format: 'html',
          ...(this.apiKey ? { api_key: this.apiKey } : {}),
        }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new ProviderError(
        'PROVIDER_UNREACHABLE',
        `The translation provider at ${url} could not be reached: ${(err as Error).message}.`,
      );
    }
    const text = await res.text();
    let body: { translatedText?: unknown; error?: unknown } = {};
    try {
      body = JSON.parse(text);
    } catch {
      // reported below
    }
    if (!res.ok) {
      const why = typeof body.error === 'string' ? body.error : text.slice(0, 200);
      throw new ProviderError('PROVIDER_ERROR', `The translation provider answered HTTP ${res.status}: ${why}`);
    }
    const out = body.translatedText;
    if (!Array.isArray(out) || out.length !== req.texts.length || !out.every((s) => typeof s === 'string')) {
      throw new ProviderError('PROVIDER_BAD_ANSWER', 'The translation provider answered without one translatedText per text sent.');
    }
    return out as string[];
  }
}

/** The configured provider (see `Config.translation`); undefined when none is configured. */
export function configuredProvider(config: Pick<Config, 'translation'>): TranslationProvider | undefined {
  const { providerUrl, providerKey } = config.translation;
  return providerUrl ? new LibreTranslateProvider(providerUrl, providerKey) : undefined;
}
