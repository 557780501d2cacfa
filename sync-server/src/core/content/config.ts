/** Limits of server-side content imports; read from the environment by `loadConfig`. */
export interface ContentConfig {
  /**
   * Largest body one import fetch may return, and most bytes an archive may unpack to: a
   * documentation repository with its images fits; raise it for larger ones.
   */
  importMaxBytes: number;
  /** Time one import may spend fetching, all fetches together. */
  importTimeoutMs: number;
  /** Most pages one import creates. */
  importMaxPages: number;
  /** Most pages a website import crawls, and how many links deep from the first one. */
  crawlMaxPages: number;
  crawlMaxDepth: number;
}

export const CONTENT_DEFAULTS: ContentConfig = {
  importMaxBytes: 128 * 1024 * 1024,
  importTimeoutMs: 120_000,
  importMaxPages: 2000,
  crawlMaxPages: 50,
  crawlMaxDepth: 3,
};

/** Reads the import limits; `int` is the config loader's whole-number reader. */
export function loadContentConfig(int: (name: string, dflt: number) => number): ContentConfig {
  const d = CONTENT_DEFAULTS;
  return {
    importMaxBytes: int('IMPORT_MAX_BYTES', d.importMaxBytes),
    importTimeoutMs: int('IMPORT_TIMEOUT_MS', d.importTimeoutMs),
    importMaxPages: int('IMPORT_MAX_PAGES', d.importMaxPages),
    crawlMaxPages: int('IMPORT_CRAWL_MAX_PAGES', d.crawlMaxPages),
    crawlMaxDepth: int('IMPORT_CRAWL_MAX_DEPTH', d.crawlMaxDepth),
  };
}
