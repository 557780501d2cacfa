import type { VisitorBot } from '@quire/shared/schemas/insights';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';

/**
 * What insights keep of a user agent: its browser, system and kind of device, and whether
 * a robot sent it (named when it is a known crawler or agent). The string itself is never
 * stored.
 */
export interface UserAgentFacts {
  browser: 'chrome' | 'firefox' | 'safari' | 'edge' | 'ie' | 'opera' | 'unknown';
  os: 'windows' | 'macos' | 'linux' | 'android' | 'ios' | 'unknown';
  device: 'desktop' | 'tablet' | 'mobile' | 'unknown';
  /** '' for a person. */
  bot: VisitorBot | '';
}

/** Known robots by a token of their user agent; the more specific first. */
const NAMED_BOTS: [RegExp, VisitorBot][] = [
  [/Googlebot|Google-InspectionTool|Storebot-Google/i, 'googlebot'],
  [/Google-Extended|Gemini/i, 'gemini'],
  [/bingbot|BingPreview/i, 'bingbot'],
  [/DuckAssistBot/i, 'duckassist'],
  [/DuckDuckBot/i, 'duckduckbot'],
  [/meta-externalfetcher/i, 'meta-fetcher'],
  [/meta-webindexer/i, 'meta-webindexer'],
  [/meta-externalads/i, 'meta-ads'],
  [/meta-externalagent/i, 'meta'],
  [/facebookexternalhit|Facebot/i, 'facebookbot'],
  [/Applebot/i, 'applebot'],
  [/GPTBot/i, 'gptbot'],
  [/ChatGPT-User/i, 'chatgpt'],
  [/OAI-SearchBot|OpenAI/i, 'openai'],
  [/ClaudeBot/i, 'claudebot'],
  [/claude-code/i, 'claude-code'],
  [/Claude-User|Claude-SearchBot|Claude-Web/i, 'claude'],
  [/anthropic/i, 'anthropic'],
  [/PerplexityBot|Perplexity-User/i, 'perplexity'],
  [/cohere/i, 'cohere'],
  [/MistralAI/i, 'mistral'],
  [/DeepSeek/i, 'deepseek'],
  [/Bytespider/i, 'bytespider'],
  [/CCBot/i, 'ccbot'],
  [/Amzn-SearchBot/i, 'amzn-searchbot'],
  [/Amzn-User/i, 'amzn-user'],
  [/Amazonbot/i, 'amazonbot'],
  [/YouBot/i, 'youbot'],
  [/\bCursor\//i, 'cursor'],
  [/vscode|Visual Studio Code/i, 'vscode'],
  [/\bcodex\b/i, 'codex'],
  [/opencode/i, 'opencode'],
  [/GrokBot|xAI-Bot|\bGrok\b/i, 'grok'],
  [/GitHub-Copilot|Copilot/i, 'github-copilot'],
];

function browserOf(ua: string): UserAgentFacts['browser'] {
  if (/Edg(e|A|iOS)?\//.test(ua)) return 'edge';
  if (/OPR\/|Opera/.test(ua)) return 'opera';
  if (/MSIE |Trident\//.test(ua)) return 'ie';
  if (/Firefox\/|FxiOS\//.test(ua)) return 'firefox';
  if (/Chrome\/|CriOS\/|Chromium\//.test(ua)) return 'chrome';
  if (/Safari\//.test(ua) && /Version\//.test(ua)) return 'safari';
  return 'unknown';
}

function osOf(ua: string): UserAgentFacts['os'] {
  if (/iPhone|iPad|iPod/.test(ua)) return 'ios';
  if (/Android/.test(ua)) return 'android';
  if (/Windows/.test(ua)) return 'windows';
  if (/Mac OS X|Macintosh/.test(ua)) return 'macos';
  if (/Linux|X11|CrOS/.test(ua)) return 'linux';
  return 'unknown';
}

function deviceOf(ua: string, os: UserAgentFacts['os']): UserAgentFacts['device'] {
  if (/iPad|Tablet/.test(ua) || (os === 'android' && !/Mobile/.test(ua))) return 'tablet';
  if (/Mobi|iPhone|iPod/.test(ua)) return 'mobile';
  if (os === 'windows' || os === 'macos' || os === 'linux') return 'desktop';
  return 'unknown';
}

/** Readers come back with the same few user agents: each is matched against the lists once. */
const known = new LRUCache<string, UserAgentFacts>({ max: 2000 });

export function userAgentFacts(ua: string): UserAgentFacts {
  let facts = known.get(ua);
  if (!facts) {
    facts = factsOf(ua);
    known.set(ua, facts);
  }
  return facts;
}

function factsOf(ua: string): UserAgentFacts {
  const named = NAMED_BOTS.find(([re]) => re.test(ua))?.[1];
  const bot: UserAgentFacts['bot'] = named ?? (!ua.trim() || isbot(ua) ? 'unknown' : '');
  const os = osOf(ua);
  return { browser: bot ? 'unknown' : browserOf(ua), os, device: bot ? 'unknown' : deviceOf(ua, os), bot };
}
