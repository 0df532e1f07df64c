// The kiosk clock face, for Chromium in kiosk mode on the clock's own touchscreen (800×480 landscape or
// 720×1280 portrait): the time and date in the clock's zone, the next alarm, what plays (with its station's
// logo) and its volume, what is on air now and next (with a toggle reserving the next programme), play/stop, a
// station picker (every saved station as a tile with its logo: a tap plays it), the sleep timer, pairing a phone;
// while an alarm rings, only Snooze and Stop.
//
// - Time: ticks from the browser's own clock, corrected by the `now` of the last live state, so the face keeps
//   the time while the daemon restarts; a small "reconnecting…" shows meanwhile.
// - Token (R30): the kiosk runs on the clock's own machine, which may ask for a pairing code; with no token it
//   pairs itself under the name "kiosk" (pairing again under that name replaces its old token, so a profile
//   wiped at boot does not pile tokens up). A refused token makes it pair again.
// - On air: the programmes of the station playing, else of the next alarm's station, else of the station the
//   Play button would play (GET /programmes/now?station=…), read again when that station changes, when the
//   stream reconnects, and when the programme on air ends (or the next one begins) — a timer set for that
//   instant, never a poll. No programme data: the lines are hidden.
// - Night: the daemon decides (`dimmed`) and sets the backlight; the page only darkens itself, never while
//   anything rings. A touch on the dimmed face wakes it (POST /display/wake) and does nothing else.
// - Sunrise: before an alarm with a sunrise the daemon sends `sunrise` (its colours step by step) and raises the
//   backlight; the page paints its background and digits in those colours (body.sunrise), fading between steps.
import {
  Client, LiveFeed, el, fill, say, clockText, dateText, whenText, countdownText, radioText, stationLogo,
} from "./api.js";

const $ = (id) => document.getElementById(id);
const client = new Client("aubade.kiosk.token");
const ZONE_KEY = "aubade.kiosk.zone";
const STATION_KEY = "aubade.kiosk.station";

let state = null;
let zone = localStorage.getItem(ZONE_KEY) || undefined;
let offsetMs = 0; // the clock's time minus the browser's
let stations = [];
let pairingShown = null; // {code, expiresAt, seen} while the pairing panel is up
let pairingPromise = null;
let wokenAt = -Infinity; // when a touch woke the dimmed face (that touch's click is swallowed)
let messageTimer = 0;
let alarmStation = { id: null, name: null }; // the next alarm and the station it plays (null: none, or not a station)
let onAir = null; // {station, now, next} as last read; null: nothing to show
let onAirAsked = 0; // the number of the latest read: an older answer arriving late is dropped
let onAirTimer = 0;
let connectedBefore = false;

const feed = new LiveFeed(client, { onState, onConnection });

/** The clock's time now, as a Date. */
const clockNow = () => new Date(Date.now() + offsetMs);

// MARK: token

/** Pairs the kiosk when it has no token: a code from the clock, traded at once under the name "kiosk". */
function ensureToken() {
  if (client.token) return Promise.resolve();
  pairingPromise ??= (async () => {
    const code = await client.request("POST", "/pair/code", {}, { anonymous: true });
    await client.pair(code.code, "kiosk");
  })().finally(() => { pairingPromise = null; });
  return pairingPromise;
}

/** A request with the kiosk's token (a change, or a read); a refused token is replaced once and the request
 *  sent again. */
async function command(method, path, body = method === "DELETE" || method === "GET" ? undefined : {}) {
  await ensureToken();
  try {
    return await client.request(method, path, body);
  } catch (error) {
    if (error.status !== 401) throw error;
    await ensureToken();
    return client.request(method, path, body);
  }
}

/** Runs a change and shows its refusal (one sentence) in `node` for a while. */
async function act(node, method, path, body) {
  try {
    const answer = await command(method, path, body);
    say(node, "");
    return answer;
  } catch (error) {
    say(node, error.message);
    clearTimeout(messageTimer);
    messageTimer = setTimeout(() => say(node, ""), 10000);
    return null;
  }
}

// MARK: live state

function onConnection(up) {
  $("reconnecting").hidden = up;
  if (up && !client.token) ensureToken().catch(() => {});
  // Back after an outage: the programmes may have changed meanwhile (the first connection reads them in onState).
  if (up && !connectedBefore && state) loadOnAir();
  connectedBefore = up;
}

function onState(next) {
  const before = state;
  state = next;
  offsetMs = next.now * 1000 - Date.now();
  if (next.zone && next.zone !== zone) {
    zone = next.zone;
    localStorage.setItem(ZONE_KEY, zone);
  }
  if (!before) loadStations();
  render();
  tick(false);
  if ((next.next?.id ?? null) !== alarmStation.id) loadAlarmStation(next.next?.id ?? null);
  else if (!before || onAirStation() !== onAir?.station) loadOnAir();
}

function render() {
  const ringing = state?.ringing;
  const dimmed = Boolean(state?.dimmed) && !ringing; // nothing rings on a dark face
  document.body.classList.toggle("dimmed", dimmed);
  document.body.classList.toggle("ringing", Boolean(ringing));
  renderSunrise(ringing ? null : state?.sunrise);
  $("ring").hidden = !ringing;
  // After a Stop, an alarm's wake-up check asks "Are you up?": one large button (any touch answers it).
  const asking = !ringing && Boolean(state?.wakeCheck);
  $("asking").hidden = !asking;
  $("face").hidden = Boolean(ringing) || asking;
  if (ringing) {
    $("snooze").hidden = Boolean(ringing.test); // a ring test has nothing to snooze
    $("pairing").hidden = true;
  } else {
    say($("ring-message"), "");
    $("pairing").hidden = !pairingShown || dimmed;
  }
  fill($("warnings"), (state?.warnings ?? []).map((w) => el("li", {}, w)));
  const radio = state?.radio;
  $("playing").hidden = !radio;
  $("playing-title").textContent = radio?.title ?? "";
  $("playing-title").hidden = !radio?.title;
  $("play").textContent = radio ? "Stop" : stations.length ? `Play ${chosenStation()}` : "No stations";
  $("play").disabled = !radio && stations.length === 0;
  $("stations").hidden = stations.length === 0;
  $("volume").hidden = !radio;
  if (radio) $("volume-value").textContent = String(radio.volume);
  renderPlayingLogo(radio);
  if (ringing || (state?.dimmed && !ringing)) $("picker").hidden = true;
  renderOnAir();
  renderOutputs(state?.outputs ?? []);
  if (pairingShown && state) {
    // Ended once the clock no longer holds the code it showed (the phone traded it, or it ran out).
    if (state.pairing?.code === pairingShown.code) pairingShown.seen = true;
    else if (pairingShown.seen) pairingEnded();
  }
}

/** The clock's outputs (the bed shaker, the lamp): one toggle each, pressed while on; only on a clock that holds some. */
function renderOutputs(outputs) {
  $("outputs").hidden = outputs.length === 0;
  const shown = [...$("outputs").querySelectorAll("button")].map((b) => `${b.dataset.output}=${b.getAttribute("aria-pressed")}`).join();
  if (shown === outputs.map((o) => `${o.name}=${o.on}`).join()) return;
  fill($("outputs"), outputs.map((o) => el("button", {
    type: "button", dataset: { output: o.name }, "aria-pressed": String(o.on),
    on: { click: () => act($("message"), "POST", `/outputs/${o.name}`, { on: !o.on }) },
  }, o.name === "shaker" ? "Shaker" : "Lamp")));
}

/** Every second: the time, the date, the next alarm's "tomorrow 06:45", the countdowns. */
function tick(schedule = true) {
  const now = clockNow();
  const clock = $("clock");
  clock.textContent = clockText(now, zone);
  clock.dateTime = now.toISOString();
  $("date").textContent = dateText(now, zone);
  const next = state?.next;
  $("next").textContent = next ? `Next alarm: ${next.name}, ${whenText(new Date(next.at * 1000), zone, now)}` : "No alarm set";
  const radio = state?.radio;
  if (radio) {
    $("playing-state").textContent = radioText(radio);
    // The sleep countdown has its own place, never cut off by a long problem or title.
    $("playing-sleep").hidden = !radio.endsAt;
    if (radio.endsAt) $("playing-sleep").textContent = `sleep ${countdownText(radio.endsAt - now.getTime() / 1000)}`;
  }
  if (pairingShown) {
    const left = pairingShown.expiresAt - now.getTime() / 1000;
    if (left > 0) $("pair-expiry").textContent = `Valid for ${countdownText(left)}`;
    else pairingEnded();
  }
  if (schedule) setTimeout(tick, 1000 - (Date.now() + offsetMs) % 1000 + 5);
}

// MARK: radio and sleep timer

async function loadStations() {
  try {
    stations = (await client.get("/stations")).stations;
  } catch {
    return; // the buttons say "No stations" until the clock answers
  }
  render();
  loadOnAir();
}

function chosenStation() {
  const saved = localStorage.getItem(STATION_KEY);
  return stations.some((s) => s.name === saved) ? saved : stations[0]?.name;
}

/** The logo of the saved station playing (the live state names it), if it has one. */
function renderPlayingLogo(radio) {
  const image = $("playing-logo");
  const station = radio?.stationId ? stations.find((s) => s.id === radio.stationId) : null;
  if (!station?.directory?.logo) {
    image.hidden = true;
    image.removeAttribute("src");
    delete image.dataset.station;
    return;
  }
  if (image.dataset.station === String(station.id)) return;
  image.dataset.station = String(station.id);
  client.image(`/stations/${station.id}/logo`).then((url) => {
    if (url && image.dataset.station === String(station.id)) {
      image.src = url;
      image.hidden = false;
    }
  });
}

/** The station picker: each saved station as a tile (its logo, else its initial, and its name). */
function openPicker() {
  fill($("picker-list"), stations.map((station) => {
    const face = station.directory?.logo
      ? stationLogo(client, station, "tile-logo")
      : el("span", { class: "tile-initial", "aria-hidden": "true" }, [...station.name][0] ?? "?");
    const playing = state?.radio?.stationId === station.id;
    const button = el("button", { type: "button", class: playing || (!state?.radio && station.name === chosenStation()) ? "chosen" : "" },
      face, el("span", { class: "tile-name" }, station.name));
    button.dataset.station = String(station.id);
    button.addEventListener("click", () => pickStation(station));
    return el("li", {}, button);
  }));
  $("picker").hidden = false;
}

function closePicker() {
  $("picker").hidden = true;
}

/** A tap on a station: it becomes the kiosk's station, and plays (replacing what played). */
async function pickStation(station) {
  localStorage.setItem(STATION_KEY, station.name);
  closePicker();
  render();
  if (onAirStation() !== onAir?.station) loadOnAir();
  await act($("message"), "POST", "/player/play", { source: station.name });
}

/** The radio's volume, 5 up or down (1–100). */
function stepVolume(step) {
  const radio = state?.radio;
  if (!radio) return;
  const volume = Math.min(100, Math.max(1, radio.volume + step));
  if (volume !== radio.volume) act($("message"), "POST", "/player/volume", { volume });
}

function playOrStop() {
  if (state?.radio) return act($("message"), "POST", "/player/stop");
  const source = chosenStation();
  if (source) return act($("message"), "POST", "/player/play", { source });
}

function sleepFor(minutes) {
  const body = { seconds: minutes * 60 };
  const source = chosenStation();
  if (source) body.source = source;
  return act($("message"), "POST", "/sleep", body);
}

// MARK: on air now and next

/** The station whose programmes the face shows: the one playing, else the next alarm's, else the one Play
 *  would play; null when there is none (then the programmes of any station). */
function onAirStation() {
  const playing = state?.radio && stations.find((s) => s.name === state.radio.source);
  if (playing) return playing.name;
  if (alarmStation.name && stations.some((s) => s.name === alarmStation.name)) return alarmStation.name;
  return chosenStation() ?? null;
}

/** Learns which station the next alarm plays (GET /alarms/{id}), then reads what is on air. */
async function loadAlarmStation(id) {
  alarmStation = { id, name: null };
  if (id !== null) {
    try {
      const alarm = await command("GET", `/alarms/${id}`);
      if (alarmStation.id !== id) return; // another alarm became the next meanwhile
      alarmStation.name = alarm.sound.startsWith("station:") ? alarm.soundName : null;
    } catch {
      // Not readable now (the clock is away): the default station's programmes until the next state.
    }
  }
  loadOnAir();
}

/** Reads what is on air on `onAirStation()` and sets the timer for the next change. */
async function loadOnAir() {
  const station = onAirStation();
  const asked = ++onAirAsked;
  clearTimeout(onAirTimer);
  let answer = null;
  try {
    answer = await command("GET", `/programmes/now${station ? `?station=${encodeURIComponent(station)}` : ""}`);
  } catch {
    answer = null; // hidden until the stream reconnects or the station changes
  }
  if (asked !== onAirAsked) return;
  onAir = { station, now: answer?.now ?? null, next: answer?.next ?? null };
  renderOnAir();
  // Read again a second after the programme on air ends, or the next one begins, whichever comes first.
  const changes = [onAir.now?.ends, onAir.next?.begins].filter((t) => typeof t === "number");
  if (!changes.length) return;
  const wait = Math.min(...changes) * 1000 - clockNow().getTime() + 1000;
  onAirTimer = setTimeout(loadOnAir, Math.min(Math.max(wait, 5000), 2 ** 31 - 1));
}

function renderOnAir() {
  const now = onAir?.now;
  const next = onAir?.next;
  $("onair").hidden = !now && !next;
  if (!now && !next) return;
  const station = onAir.station ?? now?.stationName ?? next?.stationName;
  const on = station ? ` on ${station}` : "";
  const clockTime = clockNow();
  $("onair-now").hidden = !now;
  if (now) {
    $("onair-now-label").textContent = `Now${on}`;
    $("onair-now-time").textContent = `${clockText(new Date(now.begins * 1000), zone)}–${clockText(new Date(now.ends * 1000), zone)}`;
    $("onair-now-title").textContent = now.name;
  }
  $("onair-next").hidden = !next;
  if (next) {
    $("onair-next-label").textContent = now ? "Next" : `Next${on}`;
    const begins = new Date(next.begins * 1000);
    const when = whenText(begins, zone, clockTime);
    $("onair-next-time").textContent = when.startsWith("today ")
      ? `${clockText(begins, zone)}–${clockText(new Date(next.ends * 1000), zone)}` : when;
    $("onair-next-title").textContent = next.name;
  }
  const reserve = $("onair-reserve");
  reserve.hidden = !next;
  if (next) {
    reserve.textContent = next.reserved ? "Reserved ✓" : "Reserve";
    reserve.setAttribute("aria-pressed", String(next.reserved));
    reserve.setAttribute("aria-label", next.reserved ? `Reserved: ${next.name}; tap to cancel` : `Reserve ${next.name}`);
    reserve.classList.toggle("reserved", next.reserved);
  }
}

/** Reserves the next programme, or cancels its reservation; then reads what is on air again. */
async function toggleReservation() {
  const next = onAir?.next;
  if (!next) return;
  const button = $("onair-reserve");
  button.disabled = true;
  await act($("message"), next.reserved ? "DELETE" : "POST", `/programmes/${next.id}/reserve`);
  button.disabled = false;
  await loadOnAir();
}

// MARK: pairing a phone

async function showPairingCode() {
  say($("message"), "");
  try {
    const code = await client.request("POST", "/pair/code", {}, { anonymous: true });
    // The live state may have brought this code before this answer did.
    pairingShown = { ...code, seen: state?.pairing?.code === code.code };
    $("pair-code").textContent = `${code.code.slice(0, 3)} ${code.code.slice(3)}`;
    $("pair-code").classList.remove("used");
    $("pair-new").hidden = true;
    $("pairing").hidden = false;
    tick(false);
  } catch (error) {
    say($("message"), error.message);
  }
}

/** The code was traded (the phone is paired) or ran out. */
function pairingEnded() {
  const shown = pairingShown;
  pairingShown = null;
  const expired = shown && shown.expiresAt - clockNow().getTime() / 1000 <= 1;
  $("pair-code").classList.add("used");
  $("pair-expiry").textContent = expired ? "This code has expired." : "Paired.";
  $("pair-new").hidden = !expired;
  if (!expired) setTimeout(() => { if (!pairingShown) $("pairing").hidden = true; }, 3000);
}

function closePairing() {
  pairingShown = null;
  $("pairing").hidden = true;
}

// MARK: sunrise

/** The sunrise's colours on the face, as the daemon sent them ("#rrggbb"): none, the face's own. */
function renderSunrise(sunrise) {
  document.body.classList.toggle("sunrise", Boolean(sunrise));
  document.body.dataset.sunrise = sunrise ? String(sunrise.permille) : "";
  document.body.style.setProperty("--sunrise-sky", sunrise?.sky ?? "");
  document.body.style.setProperty("--sunrise-ink", sunrise?.ink ?? "");
}

// MARK: night

/** A touch on the dimmed face wakes it and does nothing else: the touch's click is swallowed. */
function onPointerDown(event) {
  if (!document.body.classList.contains("dimmed")) {
    if (state?.wakeCheck && !state?.ringing) answerWakeCheck();
    return;
  }
  event.preventDefault();
  event.stopPropagation();
  wokenAt = performance.now();
  command("POST", "/display/wake").then((answer) => {
    if (answer && answer.dimmed === false && state) {
      state = { ...state, dimmed: false };
      render();
    }
  }).catch(() => {});
}

/** "I'm up": a person at the kiosk answers the wake-up check (the clock counts any touch as the answer). */
function answerWakeCheck() {
  command("POST", "/display/wake").then(() => {
    if (state) {
      state = { ...state, wakeCheck: null };
      render();
    }
  }).catch(() => {});
}

function onClick(event) {
  if (performance.now() - wokenAt < 1500) {
    event.preventDefault();
    event.stopPropagation();
    wokenAt = -Infinity;
  }
}

// MARK: start

function start() {
  client.onUnauthorized = () => ensureToken().then(() => feed.restart(), () => {});
  window.addEventListener("pointerdown", onPointerDown, true);
  window.addEventListener("click", onClick, true);
  $("snooze").addEventListener("click", () => act($("ring-message"), "POST", "/alarm/snooze", {}));
  $("stop").addEventListener("click", () => act($("ring-message"), "POST", "/alarm/stop", {}));
  $("up").addEventListener("click", answerWakeCheck);
  $("play").addEventListener("click", playOrStop);
  $("stations").addEventListener("click", openPicker);
  $("picker-close").addEventListener("click", closePicker);
  $("volume-down").addEventListener("click", () => stepVolume(-5));
  $("volume-up").addEventListener("click", () => stepVolume(5));
  for (const button of document.querySelectorAll("[data-minutes]")) {
    button.addEventListener("click", () => sleepFor(Number(button.dataset.minutes)));
  }
  $("pair").addEventListener("click", showPairingCode);
  $("onair-reserve").addEventListener("click", toggleReservation);
  $("pair-new").addEventListener("click", showPairingCode);
  $("pair-close").addEventListener("click", closePairing);
  tick();
  feed.start();
  ensureToken().catch(() => {}); // now, so that the first Stop never waits for pairing
}

start();
