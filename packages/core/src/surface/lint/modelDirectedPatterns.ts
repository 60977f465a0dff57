/** One entry of the model-directed text list: a pattern of text addressed to the model, not describing the tool. */
export interface ModelDirectedPattern {
  readonly id: string;
  /** Why text matching it is addressed to the model (printed in the violation). */
  readonly why: string;
  readonly pattern: RegExp;
}

// Gathered from the public tool-poisoning write-ups (Invariant Labs' "sidenote" add tool,
// `<IMPORTANT>` blocks, "do not mention this to the user", rug pulls that redirect another tool's
// email) and what scanners such as mcp-scan flag. Every entry has a matching and a non-matching
// example in modelDirectedPatterns.test.ts; docs/lint.md lists them and what they miss.
// `(?:[^.\n]|\.(?=\S))` is "within one sentence": a period ends it only when a space follows, so
// paths such as ~/.ssh/id_rsa do not split a sentence.
const SECRET = String.raw`(?:api[\s_-]?keys?|access[\s_-]?tokens?|auth(?:entication|orization)?[\s_-]?tokens?|tokens?|secrets?|passwords?|credentials?|private[\s_-]?keys?|session[\s_-]?cookies?|ssh[\s_-]?keys?)`;
const OTHER = String.raw`(?:other|another|all|every|each|any\s+other)\s+(?:tools?|servers?|services?|integrations?|mcp\s+servers?|connections?)`;

/** The documented list of model-directed text patterns (contract §25 "Lint"). */
export const MODEL_DIRECTED_PATTERNS: readonly ModelDirectedPattern[] = [
  {
    id: 'override_instructions',
    why: 'it tells the model to drop the instructions it was given',
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\b(?:[^.\n]|\.(?=\S)){0,40}?\b(?:previous|prior|above|earlier|preceding|all|any|other|system|your|the user'?s?)\b(?:[^.\n]|\.(?=\S)){0,20}?\b(?:instructions?|prompts?|rules|directions|guidelines|directives)\b/i,
  },
  {
    id: 'conceal_from_user',
    why: 'it tells the model to hide something from the user',
    pattern:
      /\b(?:do\s+not|don'?t|never|must\s+not|without)\s+(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|notify(?:ing)?|alert(?:ing)?|show(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|explain(?:ing)?|let(?:ting)?)\b(?:[^.\n]|\.(?=\S)){0,40}?\b(?:user|human|anyone|them)\b|\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose)\s+(?:this|that|it)\b|\bwithout\s+the\s+user'?s?\s+(?:knowledge|knowing|consent)\b|\b(?:keep|stay)\s+(?:this|it)\s+(?:a\s+)?(?:secret|hidden|quiet)\b/i,
  },
  {
    id: 'instruction_tag',
    why: 'a tag such as <IMPORTANT> or [SYSTEM] dresses text up as instructions to the model',
    pattern:
      /<\s*\/?\s*(?:important|system|instructions?|system[-_\s]?prompt|admin|secret|hidden)\s*>|\[\s*(?:important|system|inst|admin)\s*(?:\]|:)|<\|\s*(?:im_start|system|endoftext)\s*\|>/i,
  },
  {
    id: 'sensitive_file',
    why: 'it points the model at credentials or configuration files no tool description needs',
    pattern:
      /(?:~|\$HOME|%USERPROFILE%)[\\/]\.[\w.-]+|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?:^|[\s'"`(/\\])\.(?:ssh|aws|gnupg|kube|docker|netrc|npmrc|pgpass|env)\b|\bmcp\.json\b|\/etc\/(?:passwd|shadow|sudoers)\b|\bcredentials\.json\b|\bclaude_desktop_config\.json\b/i,
  },
  {
    id: 'other_tools_secrets',
    why: "it reaches for other tools' or servers' secrets",
    pattern: new RegExp(
      String.raw`\b${SECRET}\b(?:[^.\n]|\.(?=\S)){0,60}?\b(?:of|from|for|used\s+by|belonging\s+to|in)\s+${OTHER}\b|\b(?:other|another)\s+(?:tool|server|service)'?s?'?\s+${SECRET}\b`,
      'i',
    ),
  },
  {
    id: 'before_using_read',
    why: 'it orders a hidden step before the tool is used',
    pattern:
      /\b(?:before|prior\s+to)\s+(?:using|calling|invoking|running)\s+(?:this|any|the|another)\b(?:[^.\n]|\.(?=\S)){0,40}?\b(?:must|first|always|read|fetch|send|include|pass|call)\b(?:[^.\n]|\.(?=\S)){0,60}?\b(?:file|contents?|keys?|tokens?|secrets?|credentials?|config(?:uration)?|conversation|history)\b/i,
  },
  {
    id: 'redirect_other_tools',
    why: "it changes what another tool does (a cross-tool 'shadowing' instruction)",
    pattern:
      /\b(?:all|every|any)\s+(?:emails?|messages?|requests?|calls?|results?|files?|payments?|transfers?)\b(?:[^.\n]|\.(?=\S)){0,40}?\b(?:must|should|shall|will)\s+(?:always\s+)?(?:be\s+)?(?:sent|forwarded|redirected|copied|bcc'?d|routed)\b|\bwhen\s+(?:this\s+tool\s+is\s+available|the\s+[\w.-]+\s+tool\s+is\s+(?:called|used|invoked))\b/i,
  },
  {
    id: 'exfiltrate',
    why: 'it tells the model to send data to an address',
    pattern:
      /\b(?:send|upload|post|forward|transmit|exfiltrate|leak|copy)\b(?:[^.\n]|\.(?=\S)){0,60}?\bto\s+(?:https?:\/\/|[\w.+-]+@[\w-]+\.[\w.]+)/i,
  },
  {
    id: 'role_override',
    why: 'it tries to change who the model is or what it obeys',
    pattern:
      /\byou\s+are\s+now\b|\bnew\s+(?:system\s+)?instructions?\s*:|\b(?:reveal|print|output|repeat|show)\s+(?:your|the)\s+(?:system\s+prompt|instructions)\b|\bdeveloper\s+mode\b|\bjailbreak\b/i,
  },
  {
    id: 'pressure',
    why: 'it pressures the model with false urgency',
    pattern:
      /\b(?:very\s+){2,}important\b|\botherwise,?\s+(?:the|this)\s+tool\s+(?:will\s+not|won'?t|does\s+not|doesn'?t|cannot|can'?t)\s+work\b|\bthe\s+application\s+will\s+crash\b/i,
  },
];
