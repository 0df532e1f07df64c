// What both pages share: the API client (the device token kept in localStorage, the API's one-sentence
// errors), the live-state reader, a DOM helper that only ever inserts text, and time formatting in the clock's
// zone. Plain JavaScript, no build step.
//
// Security (R30, R31): every request but pairing carries "Authorization: Bearer <token>". User strings (alarm
// and station names, titles, warnings) are put in the page as text nodes or textContent, never as markup — a
// "<script>" alarm name stays text.

export const API = "/api/v1";

/** A refusal from the clock: `message` is its one sentence, `status` the HTTP status (0: not reached). */
export class ApiError extends Error {
  constructor(status, kind, message) {
    super(message);
    this.status = status;
    this.kind = kind;
  }
}

export const UNREACHABLE = "The clock cannot be reached; check that it is on and on the same network.";

/** The API, with the token stored under `storageKey`. `onUnauthorized` is called when the clock refuses the
 *  token it was sent (revoked, or a wiped database): the page then pairs again. */
export class Client {
  constructor(storageKey) {
    this.storageKey = storageKey;
    this.onUnauthorized = null;
  }

  get token() {
    try {
      return localStorage.getItem(this.storageKey);
    } catch {
      return null;
    }
  }

  set token(value) {
    try {
      if (value) localStorage.setItem(this.storageKey, value);
      else localStorage.removeItem(this.storageKey);
    } catch {
      // Storage refused (a private window): the token lives as long as the page.
    }
    this.memoryToken = value || null;
  }

  /** The headers of a request: the token (unless `anonymous`) and, with a body, its JSON type. */
  headers({ json = false, anonymous = false } = {}) {
    const headers = {};
    const token = this.token ?? this.memoryToken;
    if (token && !anonymous) headers.Authorization = `Bearer ${token}`;
    if (json) headers["Content-Type"] = "application/json";
    return headers;
  }

  /** Sends one request and answers the parsed JSON; throws an ApiError with the clock's sentence. */
  async request(method, path, body, { anonymous = false } = {}) {
    const init = { method, cache: "no-store", headers: this.headers({ json: body !== undefined, anonymous }) };
    if (body !== undefined) init.body = JSON.stringify(body);
    const sentToken = "Authorization" in init.headers;
    let response;
    try {
      response = await fetch(API + path, init);
    } catch {
      throw new ApiError(0, "unreachable", UNREACHABLE);
    }
    const text = await response.text().catch(() => "");
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (!response.ok) {
      const error = data && data.error;
      const failure = new ApiError(response.status, error?.kind ?? "failed",
        error?.message ?? `The clock answered ${response.status} ${response.statusText}.`);
      if (response.status === 401 && sentToken) this.unauthorized();
      throw failure;
    }
    return data;
  }

  /** An image of the API (a saved station's logo), read with the token — an <img> cannot send one — as a blob:
   *  address the page may show; null when there is none. Each is read once per page. */
  image(path) {
    this.images ??= new Map();
    if (!this.images.has(path)) {
      this.images.set(path, (async () => {
        try {
          const response = await fetch(API + path, { cache: "no-store", headers: this.headers() });
          if (!response.ok) return null;
          return URL.createObjectURL(await response.blob());
        } catch {
          return null;
        }
      })());
    }
    return this.images.get(path);
  }

  get(path) { return this.request("GET", path); }
  post(path, body = {}) { return this.request("POST", path, body); }
  patch(path, body) { return this.request("PATCH", path, body); }
  delete(path) { return this.request("DELETE", path); }

  /** Trades a pairing code for a token (no token is sent), and keeps the token. */
  async pair(code, name) {
    const answer = await this.request("POST", "/pair", { code, name }, { anonymous: true });
    this.token = answer.token;
    return answer;
  }

  /** The clock refused our token: forget it and tell the page. */
  unauthorized() {
    this.token = null;
    this.onUnauthorized?.();
  }
}

/**
 * The clock's live state, read from GET /api/v1/events. EventSource cannot send a token, so the stream is
 * read with fetch() and its body's ReadableStream, and its "event:"/"data:" lines are parsed here. When the
 * stream ends or fails it reconnects after 1 s, doubling to 15 s, back to 1 s once a state arrives. A stream
 * that stays silent for longer than three of the clock's 15-s keep-alive comments is taken for dead. Pages
 * never poll: everything live comes from here.
 */
export class LiveFeed {
  constructor(client, { onState, onConnection }) {
    this.client = client;
    this.onState = onState;
    this.onConnection = onConnection ?? (() => {});
    this.running = false;
    this.abort = null;
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.loop();
  }

  stop() {
    this.running = false;
    this.abort?.abort();
  }

  /** Drops the current stream and connects again at once (e.g. with a new token). */
  restart() {
    this.abort?.abort();
  }

  async loop() {
    let delay = 1000;
    while (this.running) {
      const abort = new AbortController();
      this.abort = abort;
      let watchdog = 0;
      const alive = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => abort.abort(), 50000);
      };
      try {
        alive();
        const response = await fetch(`${API}/events`, { headers: this.client.headers(), cache: "no-store", signal: abort.signal });
        if (response.status === 401 && "Authorization" in this.client.headers()) {
          this.client.unauthorized();
          continue;
        }
        if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
        for await (const event of readEvents(response.body, alive)) {
          if (event.type !== "state") continue;
          let state;
          try {
            state = JSON.parse(event.data);
          } catch {
            continue;
          }
          delay = 1000;
          this.onConnection(true);
          this.onState(state);
        }
      } catch {
        // The stream failed or was aborted: reconnect below.
      } finally {
        clearTimeout(watchdog);
      }
      if (!this.running) break;
      this.onConnection(false);
      await sleep(delay);
      delay = Math.min(delay * 2, 15000);
    }
  }
}

/** The server-sent events of a response body: {type, data} for each blank-line-terminated block; comment
 *  lines (": keep-alive") only count as activity. */
export async function* readEvents(body, onActivity = () => {}) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let type = "";
  let data = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onActivity();
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n")) >= 0) {
        let line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        if (line.endsWith("\r")) line = line.slice(0, -1);
        if (line === "") {
          if (data.length) yield { type: type || "message", data: data.join("\n") };
          type = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let content = colon < 0 ? "" : line.slice(colon + 1);
        if (content.startsWith(" ")) content = content.slice(1);
        if (field === "event") type = content;
        else if (field === "data") data.push(content);
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes an element: el("button", {class: "big", type: "button", on: {click: f}}, "Stop").
 * Children that are strings become text nodes (append() never parses markup). Properties are set as DOM
 * properties (value, checked, disabled, type, htmlFor…) or plain attributes; event-handler attributes and
 * markup properties are refused, so data can never become code.
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (/^on.|^(inner|outer)HTML$|^srcdoc$/i.test(key)) throw new Error(`el: refusing '${key}'`);
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "on") for (const [name, handler] of Object.entries(value)) node.addEventListener(name, handler);
    else if (key in node) node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

/** A saved station's logo as an <img> (its bytes read with the token, `Client.image`), or an empty square when it
 *  has none, so that names line up. */
export function stationLogo(client, station, className = "logo") {
  const image = el("img", { class: className, alt: "", width: 44, height: 44 });
  if (station?.directory?.logo) {
    client.image(`/stations/${station.id}/logo`).then((url) => { if (url) image.src = url; });
  }
  return image;
}

/** Replaces the children of `node` with `children` (text or nodes). */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}

/** Shows one sentence in `node` (hidden when empty). */
export function say(node, sentence) {
  node.textContent = sentence ?? "";
  node.hidden = !sentence;
}

const formatters = new Map();

/** An Intl.DateTimeFormat in `zone` (the clock's) and the browser's languages, 24-hour; the browser's zone if
 *  `zone` is unknown to it. */
export function formatter(zone, options) {
  const key = `${zone}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    const base = { hourCycle: "h23", ...options };
    const languages = navigator.languages?.length ? navigator.languages : undefined;
    try {
      format = new Intl.DateTimeFormat(languages, zone ? { ...base, timeZone: zone } : base);
    } catch {
      format = new Intl.DateTimeFormat(languages, base);
    }
    formatters.set(key, format);
  }
  return format;
}

/** "07:30" in `zone`. */
export function clockText(date, zone) {
  return formatter(zone, { hour: "2-digit", minute: "2-digit" }).format(date);
}

/** "Tuesday 25 November" (in the browser's language) in `zone`. */
export function dateText(date, zone) {
  return formatter(zone, { weekday: "long", day: "numeric", month: "long" }).format(date);
}

/** "Tue 07:30", or "today 07:30" / "tomorrow 07:30" when it is that close, in `zone`, seen from `now`. */
export function whenText(date, zone, now) {
  const day = formatter(zone, { year: "numeric", month: "2-digit", day: "2-digit" });
  const time = clockText(date, zone);
  if (day.format(date) === day.format(now)) return `today ${time}`;
  if (day.format(date) === day.format(new Date(now.getTime() + 86400000))) return `tomorrow ${time}`;
  return `${formatter(zone, { weekday: "short" }).format(date)} ${time}`;
}

/** "29:41" or "1:05:00" for a count of seconds. */
export function countdownText(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** What plays, in words: "FIP — playing", "FIP — connecting…", "FIP — not playing: <problem>". */
export function radioText(radio) {
  if (!radio) return "Nothing is playing.";
  const state = radio.state === "connecting" ? "connecting…"
    : radio.state === "playing" ? "playing"
      : `not playing${radio.problem ? `: ${radio.problem}` : ""}`;
  return `${radio.source} — ${state}`;
}
