// The phone page: alarms (add, edit, delete, enable, skip next, skip days off), the next firings (skipped ones
// with why), days off (add a date or a range, remove, import a holiday calendar), stations (add with a 5-s
// test, delete), now playing (play, stop, volume), what is on air now and next on each station and the week's
// programmes (reserve), settings, the last mornings' reports, and the ringing alarm's Snooze and Stop; a search
// of the public station directory (try a result, save it; one the clock cannot play says why and has no save),
// and podcasts (follow by feed address, remove; each a `podcast:<name>` sound). It pairs with a code shown by the clock, keeps
// its token in localStorage and sends it with every request (R30). Live state comes from the event stream;
// lists are read again when the live state says something changed, when the stream reconnects, and when the
// page is shown again — never on a timer. Errors are the clock's one sentence, shown next to the form that
// caused them; nothing typed is cleared by an error. The directory's text is anyone's: like every string from the
// clock, it goes in as text only.
import {
  Client, LiveFeed, el, fill, say, radioText, countdownText, formatter, clockText, whenText, stationLogo,
} from "./api.js";

const $ = (id) => document.getElementById(id);
const client = new Client("aubade.phone.token");
const NAME_KEY = "aubade.phone.name";
const DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const DAY_LABELS = { mon: "Mon", tue: "Tue", wed: "Wed", thu: "Thu", fri: "Fri", sat: "Sat", sun: "Sun" };
const DAY_NAMES = { mon: "Monday", tue: "Tuesday", wed: "Wednesday", thu: "Thursday", fri: "Friday", sat: "Saturday", sun: "Sunday" };
const WORKDAYS = new Set(["mon", "tue", "wed", "thu", "fri"]);

let live = null;
let connected = false;
let stations = [];
let podcasts = [];
let results = []; // the directory's last answer
let settings = null;
let editing = null; // the alarm document being edited; null while adding one
let original = null; // the editor's values when it opened
let stationTest = null; // {label, seen, text} while a "Test it" plays
let countdown = 0;
let offset = 0; // the clock's time minus the browser's, in seconds, from the last state's `now`
let skipDaysOffTouched = false; // whether the editor's "Skip days off" was set by hand (else it follows the days)
let programmeStations = []; // the stations that have programmes, for "on air" (null: programmes on no station)
let onAirAsked = 0; // the number of the latest on-air read: an older answer arriving late is dropped
let onAirTimer = 0;
let onAirShown = []; // the last on-air answers shown (drawn again once the clock's zone is known)

const feed = new LiveFeed(client, { onState, onConnection });

// MARK: pairing

function showPairing() {
  feed.stop();
  $("app").hidden = true;
  $("tabs").hidden = true;
  $("connection").hidden = true;
  $("pairing").hidden = false;
  if (!$("pair-name").value) $("pair-name").value = localStorage.getItem(NAME_KEY) || guessDeviceName();
  $("pair-code").focus();
}

function guessDeviceName() {
  const agent = navigator.userAgent;
  if (/iPhone/.test(agent)) return "iPhone";
  if (/iPad/.test(agent)) return "iPad";
  if (/Android/.test(agent)) return "Android phone";
  return "phone";
}

async function pair(event) {
  event.preventDefault();
  const code = $("pair-code").value.replace(/\s/g, "");
  const name = $("pair-name").value.trim();
  const button = $("pair-submit");
  button.disabled = true;
  try {
    const answer = await client.pair(code, name);
    localStorage.setItem(NAME_KEY, answer.name);
    $("pair-code").value = "";
    say($("pair-error"), "");
    showApp();
  } catch (error) {
    say($("pair-error"), error.message);
  } finally {
    button.disabled = false;
  }
}

function showApp() {
  $("pairing").hidden = true;
  $("app").hidden = false;
  $("tabs").hidden = false;
  const name = localStorage.getItem(NAME_KEY);
  $("device").textContent = name ? `This device is paired with the clock as “${name}”.` : "This device is paired with the clock.";
  feed.start();
  refreshAll();
}

// MARK: tabs

function showTab(name) {
  for (const button of $("tabs").querySelectorAll("button")) {
    const current = button.dataset.tab === name;
    if (current) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
    $(`tab-${button.dataset.tab}`).hidden = !current;
  }
  window.scrollTo(0, 0);
}

// MARK: reading

function refreshAll() {
  return Promise.all([loadAlarms(), loadNext(), loadDaysOff(), loadStations(), loadPodcasts(), loadProgrammes(),
    loadSettings(), loadReports()]);
}

/** Runs `read` and shows its failure in `errorNode`; a 401 has already sent the page back to pairing. */
async function guarded(errorNode, read) {
  try {
    await read();
    say(errorNode, "");
  } catch (error) {
    say(errorNode, error.message);
  }
}

function loadAlarms() {
  return guarded($("alarms-error"), async () => renderAlarms((await client.get("/alarms")).alarms));
}

function loadNext() {
  return guarded($("alarms-error"), async () => {
    const next = await client.get("/alarms/next?count=5");
    $("tomorrow").textContent = next.tomorrow;
    // A skipped firing says why, in the clock's words ("skipped: Christmas Day").
    fill($("firings"), next.firings.map((f) => el("li", { class: f.skipped ? "skipped" : "" },
      el("span", { class: "when" }, f.local), " ", el("span", { class: "name" }, f.name),
      f.skipped ? el("span", { class: "reason" }, ` — ${f.reason ?? "skipped"}`) : null,
      f.onAir ? el("span", { class: "on-air" }, ` · on air: ${f.onAir}`) : null)));
  });
}

function loadStations() {
  return guarded($("stations-error"), async () => {
    stations = (await client.get("/stations")).stations;
    renderStations();
    renderSources();
  });
}

function loadProgrammes() {
  return guarded($("programmes-error"), async () => {
    const programmes = (await client.get("/programmes")).programmes;
    renderProgrammes(programmes);
    const named = [...new Set(programmes.map((p) => p.stationName).filter(Boolean))].sort();
    programmeStations = named.length ? named : programmes.length ? [null] : [];
    loadOnAir();
  });
}

function loadSettings() {
  return guarded($("settings-error"), async () => renderSettings(await client.get("/settings")));
}

function loadReports() {
  return guarded($("reports-error"), async () => {
    const reports = (await client.get("/reports?days=7")).reports.filter((r) => r.lines.length > 0);
    $("reports-empty").hidden = reports.length > 0;
    fill($("reports"), reports.map((r) => el("div", { class: "report" },
      el("h3", {}, dayTitle(r.date)),
      el("ul", {}, r.lines.map((line) => el("li", {}, line))))));
  });
}

/** "Monday 24 November" for "2026-11-24". */
function dayTitle(isoDate) {
  const [y, m, d] = isoDate.split("-").map(Number);
  if (!y || !m || !d) return isoDate;
  return formatter("UTC", { weekday: "long", day: "numeric", month: "long" }).format(new Date(Date.UTC(y, m - 1, d, 12)));
}

// MARK: alarms

function daysText(alarm) {
  if (alarm.days === "once") return alarm.date ? `Once, ${alarm.date}` : "Once";
  const days = alarm.days.split(",");
  if (days.length === 7) return "Every day";
  if (days.join(",") === "mon,tue,wed,thu,fri") return "Weekdays";
  if (days.join(",") === "sat,sun") return "Weekends";
  // Runs of three days or more as ranges: "Mon–Thu, Sat".
  const runs = [];
  for (const day of days) {
    const run = runs[runs.length - 1];
    if (run && DAYS.indexOf(day) === DAYS.indexOf(run[run.length - 1]) + 1) run.push(day);
    else runs.push([day]);
  }
  return runs.flatMap((run) => run.length >= 3 ? [`${DAY_LABELS[run[0]]}–${DAY_LABELS[run[run.length - 1]]}`]
    : run.map((d) => DAY_LABELS[d] ?? d)).join(", ");
}

function renderAlarms(alarms) {
  $("alarms-empty").hidden = alarms.length > 0;
  fill($("alarms"), alarms.map((alarm) => {
    const summary = [daysText(alarm), alarm.soundName];
    if (alarm.skipDate) summary.push(`skips ${alarm.skipDate}`);
    if (alarm.skipDaysOff && alarm.days !== "once") summary.push("skips days off");
    if (alarm.sunriseSeconds > 0) summary.push(`sunrise ${Math.round(alarm.sunriseSeconds / 60)} min before`);
    if (alarm.ladder === "off") summary.push("silent after its duration");
    else if (alarm.ladder && alarm.ladder !== "default") summary.push(`ladder ${alarm.ladder}`);
    if (alarm.wakeCheckSeconds > 0) summary.push(`asks "are you up?" ${Math.round(alarm.wakeCheckSeconds / 60)} min after Stop`);
    for (const output of ["shaker", "lamp"]) {
      const timing = alarm[output];
      if (timing === "off") summary.push(`no ${output}`);
      else if (timing === "now") summary.push(`${output} from the start`);
      else if (timing && timing.startsWith("after:")) summary.push(`${output} ${timing.slice(6)} in`);
    }
    if (alarm.soundAfterSeconds > 0) summary.push(`vibrate first, sound after ${durationText(alarm.soundAfterSeconds)}`);
    if (alarm.timeZone) summary.push(alarm.timeZone);
    const toggle = el("input", {
      type: "checkbox", checked: alarm.enabled, "aria-label": `${alarm.name} enabled`,
      on: { change: (event) => setEnabled(alarm, event.target) },
    });
    return el("li", { class: alarm.enabled ? "alarm" : "alarm off", dataset: { id: alarm.id } },
      el("button", { type: "button", class: "alarm-open", on: { click: () => openEditor(alarm) } },
        el("span", { class: "alarm-time" }, alarm.time),
        el("span", { class: "alarm-name" }, alarm.name),
        el("span", { class: "alarm-summary" }, summary.join(" · "))),
      el("label", { class: "switch" }, toggle, el("span", { class: "slider" })));
  }));
}

async function setEnabled(alarm, box) {
  const wanted = box.checked;
  box.disabled = true;
  try {
    await client.post(`/alarms/${alarm.id}/${wanted ? "enable" : "disable"}`);
    say($("alarms-error"), "");
    await Promise.all([loadAlarms(), loadNext()]);
  } catch (error) {
    box.checked = !wanted;
    say($("alarms-error"), error.message);
  } finally {
    box.disabled = false;
  }
}

// MARK: the alarm editor

function buildDayToggles() {
  fill($("f-days"), DAYS.map((day) => el("label", { class: "day" },
    el("input", { type: "checkbox", value: day, name: "day", "aria-label": DAY_NAMES[day] }),
    el("span", {}, DAY_LABELS[day]))));
}

function buildZones() {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  fill($("zones"), zones.map((zone) => el("option", { value: zone })));
}

/** A podcast as a sound: `podcast:<name>`, its newest episode. */
const podcastSource = (p) => `podcast:${p.name}`;

/** The podcasts as a group of sound choices (none: nothing). */
function podcastChoices() {
  return podcasts.length
    ? el("optgroup", { label: "Podcasts (newest episode)" },
      podcasts.map((p) => el("option", { value: podcastSource(p) }, podcastSource(p))))
    : null;
}

/** The sound choices: the tone, each station, each podcast, a stream address. */
function renderSources() {
  const select = $("f-source");
  const chosen = select.value;
  fill(select,
    el("option", { value: "tone" }, "Built-in tone"),
    stations.map((s) => el("option", { value: `station:${s.id}` }, s.name)),
    podcastChoices(),
    el("option", { value: "url" }, "A stream address…"));
  if (editing && editing.sound.startsWith("station:") && !stations.some((s) => `station:${s.id}` === editing.sound)) {
    select.append(el("option", { value: "keep" }, `${editing.soundName} (no longer saved)`));
  }
  if (editing && editing.sound.startsWith("podcast:") && !podcasts.some((p) => podcastSource(p) === editing.sound)) {
    select.append(el("option", { value: "keep" }, `${editing.sound} (no longer followed)`));
  }
  if (chosen && [...select.options].some((o) => o.value === chosen)) select.value = chosen;
  const player = $("player-source");
  const playing = player.value;
  const choices = stations.length + podcasts.length;
  fill(player, choices ? [...stations.map((s) => el("option", { value: s.name }, s.name)), podcastChoices()]
    : el("option", { value: "" }, "No stations yet"));
  if (playing && [...player.options].some((o) => o.value === playing)) player.value = playing;
  $("player-play").disabled = choices === 0;
}

function openEditor(alarm) {
  editing = alarm;
  renderSources();
  $("editor-title").textContent = alarm ? "Edit alarm" : "New alarm";
  const defaults = settings ?? {};
  const v = alarm ? {
    name: alarm.name, time: alarm.time, repeat: alarm.days === "once" ? "once" : "days",
    days: alarm.days === "once" ? "" : alarm.days, date: alarm.date ?? "",
    sourceChoice: sourceChoice(alarm), url: /^https?:/i.test(alarm.sound) ? alarm.sound : "",
    volume: alarm.volume, duration: alarm.durationSeconds / 60, fadeIn: alarm.fadeInSeconds,
    snooze: alarm.snoozeMinutes, maxSnoozes: alarm.maxSnoozes, shake: alarm.shakeToStop, enabled: alarm.enabled,
    tz: alarm.timeZone ?? "", skipDaysOff: alarm.skipDaysOff, sunrise: String((alarm.sunriseSeconds ?? 0) / 60),
    ladder: alarm.ladder ?? "default",
    wakeCheck: alarm.wakeCheckSeconds ? String(alarm.wakeCheckSeconds / 60) : "",
    shaker: alarm.shaker ?? "ladder", lamp: alarm.lamp ?? "ladder",
    soundAfter: alarm.soundAfterSeconds ? durationText(alarm.soundAfterSeconds) : "off",
  } : {
    name: "", time: "", repeat: "days", days: "mon,tue,wed,thu,fri", date: "", sourceChoice: "tone", url: "",
    volume: defaults.defaultVolume ?? 60, duration: (defaults.alarmDuration ?? 900) / 60, fadeIn: defaults.fadeIn ?? 30,
    snooze: defaults.snoozeMinutes ?? 9, maxSnoozes: defaults.maxSnoozes ?? 3, shake: false, enabled: true, tz: "",
    skipDaysOff: true, // as the clock does for a new alarm on weekdays only (followSkipDaysOff keeps it so)
    sunrise: "", // empty: the clock's [display] sunrise
    ladder: "default", // the clock's [alarm] ladder
    wakeCheck: "", // none
    shaker: "ladder", lamp: "ladder", // the outputs at the ladder's top step
    soundAfter: "off", // the sound with the ring
  };
  $("f-name").value = v.name;
  $("f-time").value = v.time;
  $(v.repeat === "once" ? "f-repeat-once" : "f-repeat-days").checked = true;
  const days = new Set(v.days.split(","));
  for (const box of $("f-days").querySelectorAll("input")) box.checked = days.has(box.value);
  $("f-date").value = v.date;
  $("f-source").value = v.sourceChoice;
  $("f-url").value = v.url;
  $("f-volume").value = v.volume;
  $("f-duration").value = v.duration;
  $("f-fade").value = v.fadeIn;
  $("f-snooze").value = v.snooze;
  $("f-max-snoozes").value = v.maxSnoozes;
  $("f-shake").checked = v.shake;
  $("f-enabled").checked = v.enabled;
  $("f-tz").value = v.tz;
  $("f-skip-days-off").checked = v.skipDaysOff;
  $("f-sunrise").value = v.sunrise;
  $("f-ladder").value = v.ladder;
  $("f-wake-check").value = v.wakeCheck;
  $("f-shaker").value = v.shaker;
  $("f-lamp").value = v.lamp;
  $("f-sound-after").value = v.soundAfter;
  skipDaysOffTouched = Boolean(alarm);
  showRepeat();
  showSource();
  showVolume();
  renderSkip();
  resetDelete();
  $("f-delete").hidden = !alarm;
  say($("editor-error"), "");
  original = readForm();
  $("next-card").hidden = true;
  $("alarms-card").hidden = true;
  $("days-off-card").hidden = true;
  $("editor").hidden = false;
  // The form's top at the top of the screen (the warnings, if any, stay just above it).
  $("editor").scrollIntoView({ block: "start" });
  if (!alarm) $("f-name").focus();
}

function sourceChoice(alarm) {
  if (alarm.sound === "tone") return "tone";
  if (/^https?:/i.test(alarm.sound)) return "url";
  if (podcasts.some((p) => podcastSource(p) === alarm.sound)) return alarm.sound;
  return stations.some((s) => `station:${s.id}` === alarm.sound) ? alarm.sound : "keep";
}

function closeEditor() {
  editing = null;
  original = null;
  $("editor").hidden = true;
  $("next-card").hidden = false;
  $("alarms-card").hidden = false;
  $("days-off-card").hidden = false;
}

function showRepeat() {
  const once = $("f-repeat-once").checked;
  $("f-days").hidden = once;
  $("f-date-field").hidden = !once;
  $("f-skip-days-off-field").hidden = once; // a one-shot alarm rings on a day off too
}

/** A new alarm's "Skip days off" follows its days, as the clock's default does (on for weekdays only), until
 *  it is set by hand. */
function followSkipDaysOff() {
  if (skipDaysOffTouched) return;
  const days = [...$("f-days").querySelectorAll("input:checked")].map((box) => box.value);
  $("f-skip-days-off").checked = days.length > 0 && days.every((day) => WORKDAYS.has(day));
}

function showSource() {
  $("f-url-field").hidden = $("f-source").value !== "url";
}

function showVolume() {
  $("f-volume-out").textContent = $("f-volume").value;
}

/** The editor's values, as text (numbers as typed). */
function readForm() {
  const choice = $("f-source").value;
  const station = stations.find((s) => `station:${s.id}` === choice);
  return {
    name: $("f-name").value,
    time: timeText($("f-time").value),
    repeat: $("f-repeat-once").checked ? "once" : "days",
    days: [...$("f-days").querySelectorAll("input:checked")].map((box) => box.value).join(","),
    date: $("f-date").value,
    source: choice === "tone" ? "tone" : choice === "url" ? $("f-url").value.trim() : station ? station.name : choice,
    volume: $("f-volume").value,
    duration: $("f-duration").value,
    fadeIn: $("f-fade").value,
    snooze: $("f-snooze").value,
    maxSnoozes: $("f-max-snoozes").value,
    shake: $("f-shake").checked,
    enabled: $("f-enabled").checked,
    tz: $("f-tz").value.trim(),
    skipDaysOff: $("f-skip-days-off").checked,
    sunrise: $("f-sunrise").value,
    ladder: $("f-ladder").value.trim() || "default",
    wakeCheck: $("f-wake-check").value,
    shaker: $("f-shaker").value.trim() || "ladder",
    lamp: $("f-lamp").value.trim() || "ladder",
    soundAfter: $("f-sound-after").value.trim() || "off",
  };
}

/** A time as typed, made "HH:MM" when it is only digits ("645" → "06:45", "0645" → "06:45"); anything else is
 *  sent as typed, for the clock to judge with its own sentence. */
function timeText(typed) {
  const text = typed.trim();
  const digits = /^(\d{1,2}):?(\d{2})$/.exec(text.replace(/\s/g, ""));
  return digits ? `${digits[1].padStart(2, "0")}:${digits[2]}` : text;
}

/** The request's fields: every field for a new alarm, only the changed ones for an edit. Keys are the API's
 *  (= the CLI's options); durations are numbers with their unit in the key (durationSeconds, fadeInSeconds,
 *  snoozeMinutes), as the alarm's own document shows them. */
// "1m30s" from 90 (the CLI's way of writing a duration).
function durationText(seconds) {
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  return (h ? `${h}h` : "") + (m ? `${m}m` : "") + (s || (!h && !m) ? `${s}s` : "");
}

// Seconds in "90s", "1m", "1m30s" or a bare number of seconds; "off" and "" are 0; anything else -1 (the clock refuses it).
function secondsOf(text) {
  const t = text.trim().toLowerCase();
  if (t === "" || t === "off") return 0;
  if (/^\d+$/.test(t)) return Number(t);
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(t);
  if (!m || t === "") return -1;
  return Number(m[1] || 0) * 3600 + Number(m[2] || 0) * 60 + Number(m[3] || 0);
}

function alarmPatch(form, before, isNew) {
  const patch = {};
  const changed = (key) => isNew || form[key] !== before[key];
  if (changed("name")) patch.name = form.name;
  if (changed("time")) patch.time = form.time;
  if (form.repeat === "once") {
    if (isNew || before.repeat !== "once" || form.date !== before.date) {
      patch.days = "once";
      if (form.date) patch.date = form.date;
    }
  } else if (isNew || before.repeat !== "days" || form.days !== before.days) {
    patch.days = form.days;
  }
  if (changed("source") && form.source !== "keep") patch.source = form.source;
  if (changed("volume")) patch.volume = Number(form.volume);
  if (changed("duration") && form.duration !== "") patch.durationSeconds = Math.round(Number(form.duration) * 60);
  if (changed("fadeIn") && form.fadeIn !== "") patch.fadeInSeconds = Math.round(Number(form.fadeIn));
  if (changed("snooze") && form.snooze !== "") patch.snoozeMinutes = Math.round(Number(form.snooze));
  if (changed("maxSnoozes") && form.maxSnoozes !== "") patch.maxSnoozes = Number(form.maxSnoozes);
  if (changed("shake")) patch.shake = form.shake;
  if (changed("enabled")) patch.enabled = form.enabled;
  if (changed("tz") && !(isNew && form.tz === "")) patch.tz = form.tz;
  if (form.repeat === "days" && changed("skipDaysOff")) patch.skipDaysOff = form.skipDaysOff;
  if (changed("sunrise") && form.sunrise !== "") patch.sunriseSeconds = Math.round(Number(form.sunrise) * 60);
  if (changed("ladder") && !(isNew && form.ladder === "default")) patch.ladder = form.ladder;
  if (changed("wakeCheck") && !(isNew && form.wakeCheck === "")) patch.wakeCheckSeconds = Math.round(Number(form.wakeCheck || 0) * 60);
  for (const output of ["shaker", "lamp"]) {
    if (changed(output) && !(isNew && form[output] === "ladder")) patch[output] = form[output];
  }
  if (changed("soundAfter") && !(isNew && form.soundAfter === "off")) patch.soundAfterSeconds = secondsOf(form.soundAfter);
  return patch;
}

async function saveAlarm(event) {
  event.preventDefault();
  const form = readForm();
  if (form.repeat === "days" && !form.days) {
    say($("editor-error"), "Pick at least one day, or choose Once.");
    return;
  }
  const isNew = !editing;
  const patch = alarmPatch(form, original, isNew);
  const save = $("f-save");
  save.disabled = true;
  try {
    if (isNew) await client.post("/alarms", patch);
    else if (Object.keys(patch).length) await client.patch(`/alarms/${editing.id}`, patch);
    closeEditor();
    await Promise.all([loadAlarms(), loadNext()]);
  } catch (error) {
    say($("editor-error"), error.message);
  } finally {
    save.disabled = false;
  }
}

let deleteTimer = 0;

function resetDelete() {
  clearTimeout(deleteTimer);
  const button = $("f-delete");
  button.textContent = "Delete";
  button.classList.remove("confirm");
}

/** Delete asks once more on the same button ("Really delete?") rather than in a dialog. */
async function deleteAlarm() {
  const button = $("f-delete");
  if (!button.classList.contains("confirm")) {
    button.textContent = "Really delete?";
    button.classList.add("confirm");
    deleteTimer = setTimeout(resetDelete, 5000);
    return;
  }
  resetDelete();
  button.disabled = true;
  try {
    await client.delete(`/alarms/${editing.id}`);
    closeEditor();
    await Promise.all([loadAlarms(), loadNext()]);
  } catch (error) {
    say($("editor-error"), error.message);
  } finally {
    button.disabled = false;
  }
}

function renderSkip() {
  $("skip-row").hidden = !editing;
  if (!editing) return;
  $("skip-text").textContent = editing.skipDate ? `Its ringing on ${editing.skipDate} is skipped.` : "";
  $("skip-text").hidden = !editing.skipDate;
  $("f-skip").textContent = editing.skipDate ? "Ring that day after all" : "Skip the next ringing";
}

async function skipNext() {
  const button = $("f-skip");
  button.disabled = true;
  try {
    const saved = await client.post(`/alarms/${editing.id}/skip-next`, { undo: Boolean(editing.skipDate) });
    editing = { ...editing, skipDate: saved.skipDate ?? null };
    renderSkip();
    say($("editor-error"), "");
    await Promise.all([loadAlarms(), loadNext()]);
  } catch (error) {
    say($("editor-error"), error.message);
  } finally {
    button.disabled = false;
  }
}

// MARK: ringing, warnings, now playing

function onConnection(up) {
  const wasDown = !connected;
  connected = up;
  $("connection").hidden = up;
  if (up && wasDown && live) refreshAll(); // back after an outage: anything may have changed meanwhile
}

function onState(state) {
  const before = live;
  live = state;
  offset = state.now - Date.now() / 1000;
  renderRinging(state.ringing);
  renderOutputs(state.outputs ?? []);
  fill($("warnings"), (state.warnings ?? []).map((w) => el("li", {}, w)));
  renderPlayer(state.radio);
  renderStationTest(state.radio);
  if (before?.zone !== state.zone) renderOnAir(onAirShown); // the times in the clock's zone, now known
  if (before && JSON.stringify(before.next ?? null) !== JSON.stringify(state.next ?? null)) {
    loadAlarms();
    loadNext();
  }
}

function renderRinging(ringing) {
  $("ringing").hidden = !ringing;
  if (!ringing) return;
  const names = ringing.alarms.map((a) => a.name).join(" and ");
  $("ringing-text").textContent = ringing.test ? "A ring test is sounding." : `${names || "An alarm"} is ringing.`;
  $("ring-snooze").hidden = Boolean(ringing.test);
}

/** The clock's outputs (the bed shaker, the lamp), one switch each; only on a clock that holds some. */
function renderOutputs(outputs) {
  $("outputs-card").hidden = outputs.length === 0;
  const shown = [...$("outputs").querySelectorAll("input")].map((box) => `${box.name}=${box.checked}`).join();
  if (shown === outputs.map((o) => `${o.name}=${o.on}`).join()) return;
  fill($("outputs"), outputs.map((o) => {
    const box = el("input", { type: "checkbox", name: o.name, checked: o.on, on: { change: (event) => switchOutput(o.name, event.target) } });
    return el("label", { class: "switch-field" }, box, el("span", {}, o.name === "shaker" ? "Bed shaker" : "Lamp"));
  }));
}

async function switchOutput(name, box) {
  const wanted = box.checked;
  box.disabled = true;
  if (await act($("outputs-error"), () => client.post(`/outputs/${name}`, { on: wanted })) === null) box.checked = !wanted;
  box.disabled = false;
}

async function dismiss(what) {
  try {
    await client.post(`/alarm/${what}`, {});
    say($("ringing-error"), "");
  } catch (error) {
    say($("ringing-error"), error.message);
  }
}

function renderPlayer(radio) {
  $("player-state").textContent = radioText(radio);
  say($("player-title"), radio?.title ?? "");
  const volume = $("player-volume");
  volume.disabled = !radio;
  if (radio && document.activeElement !== volume) volume.value = radio.volume;
  $("player-volume-out").textContent = radio ? String(radio.volume) : "";
  $("player-stop").disabled = !radio;
  clearInterval(countdown);
  if (radio?.endsAt) {
    const show = () => {
      const left = radio.endsAt - nowSeconds();
      $("player-state").textContent = `${radioText(radio)} · sleep ${countdownText(left)}`;
    };
    show();
    countdown = setInterval(show, 1000);
  }
}

/** The clock's time now, in Unix seconds. */
function nowSeconds() {
  return Date.now() / 1000 + offset;
}

async function play() {
  const source = $("player-source").value;
  if (!source) return;
  await act($("player-error"), () => client.post("/player/play", { source }));
}

async function stopPlayer() {
  await act($("player-error"), () => client.post("/player/stop"));
}

async function setVolume() {
  await act($("player-error"), () => client.post("/player/volume", { volume: Number($("player-volume").value) }));
}

/** Runs a command and shows its refusal in `errorNode`. */
async function act(errorNode, command) {
  try {
    const answer = await command();
    say(errorNode, "");
    return answer;
  } catch (error) {
    say(errorNode, error.message);
    return null;
  }
}

// MARK: stations

function renderStations() {
  $("stations-empty").hidden = stations.length > 0;
  fill($("stations"), stations.map((station) => {
    const remove = el("button", { type: "button", class: "small danger" }, "Delete");
    remove.addEventListener("click", () => deleteStation(station, remove));
    return el("li", { class: "station", dataset: { id: station.id } },
      stationLogo(client, station),
      el("div", { class: "station-text" },
        el("span", { class: "station-name" }, station.name),
        el("span", { class: "station-url" }, station.url)),
      remove);
  }));
}

/** A row's button asks once more on itself (`question`) instead of in a dialog: true when this press is the second
 *  within 5 s; after that the button reads `label` again. */
function confirmed(button, label, question) {
  if (button.classList.contains("confirm")) return true;
  button.textContent = question;
  button.classList.add("confirm");
  setTimeout(() => {
    button.textContent = label;
    button.classList.remove("confirm");
  }, 5000);
  return false;
}

async function deleteStation(station, button) {
  if (!confirmed(button, "Delete", "Really?")) return;
  button.disabled = true;
  try {
    await client.delete(`/stations/${station.id}`);
    say($("stations-error"), "");
    await Promise.all([loadStations(), loadAlarms()]);
  } catch (error) {
    button.disabled = false;
    say($("stations-error"), error.message);
  }
}

async function addStation(event) {
  event.preventDefault();
  const body = { name: $("s-name").value.trim(), url: $("s-url").value.trim() };
  const alternate = $("s-alternate").value.trim();
  if (alternate) body.alternate = alternate;
  const button = $("s-add");
  button.disabled = true;
  try {
    await client.post("/stations", body);
    for (const id of ["s-name", "s-url", "s-alternate"]) $(id).value = "";
    say($("station-error"), "");
    await loadStations();
  } catch (error) {
    say($("station-error"), error.message);
  } finally {
    button.disabled = false;
  }
}

/** "Test it": plays the address typed for 5 s through the clock; the live state then says how it goes. */
async function testStation() {
  const url = $("s-url").value.trim();
  if (!url) {
    say($("station-error"), "Type the station's stream address first.");
    return;
  }
  const answer = await act($("station-error"), () => client.post("/player/play", { source: url, seconds: 5 }));
  if (!answer) return;
  stationTest = { label: answer.label, seen: false, text: answer.message };
  say($("station-test"), answer.message);
  if (live) renderStationTest(live.radio);
}

function renderStationTest(radio) {
  if (!stationTest) return;
  if (radio && radio.source === stationTest.label) {
    stationTest.seen = true;
    stationTest.text = radioText(radio) + (radio.title ? ` — “${radio.title}”` : "");
    say($("station-test"), stationTest.text);
  } else if (stationTest.seen) {
    say($("station-test"), `${stationTest.text} The test is over.`);
    stationTest = null;
  }
}

// MARK: the station directory

/** Searches the public directory (through the clock) for the words, country and tag typed. */
async function search(event) {
  event.preventDefault();
  const query = new URLSearchParams();
  const words = $("q").value.trim();
  const country = $("q-country").value.trim();
  const tag = $("q-tag").value.trim();
  if (words) query.set("q", words);
  if (country) query.set("country", country);
  if (tag) query.set("tag", tag);
  const button = $("search-submit");
  button.disabled = true;
  say($("search-note"), "Searching…");
  try {
    results = (await client.get(`/directory/search?${query}`)).stations;
    say($("search-error"), "");
    say($("search-note"), results.length ? "" : "No station in the directory matches.");
  } catch (error) {
    results = [];
    say($("search-note"), "");
    say($("search-error"), error.message);
  } finally {
    button.disabled = false;
  }
  renderResults();
}

/** "CH · MP3 · 128 kbps". */
function resultDetails(r) {
  return [r.country, r.codec, r.bitrate ? `${r.bitrate} kbps` : ""].filter(Boolean).join(" · ");
}

function renderResults() {
  fill($("results"), results.map((r) => {
    // The logo as the directory gives it (on the station's own site): an <img> runs no script, and one that
    // cannot be had leaves the empty square.
    const logo = el("img", { class: "logo", alt: "", width: 44, height: 44, referrerPolicy: "no-referrer", loading: "lazy" });
    if (/^https?:\/\//i.test(r.favicon)) {
      logo.addEventListener("error", () => logo.removeAttribute("src"), { once: true });
      logo.src = r.favicon;
    }
    const saved = stations.some((s) => s.directory?.id === r.id);
    const actions = el("div", { class: "result-actions" });
    if (r.playable) {
      const tryIt = el("button", { type: "button", class: "small try" }, "Try");
      tryIt.addEventListener("click", () => tryResult(r));
      actions.append(tryIt);
      if (!saved) {
        const save = el("button", { type: "button", class: "small primary save" }, "Save");
        save.addEventListener("click", () => saveResult(r, save));
        actions.append(save);
      }
    }
    return el("li", { class: `result${saved ? " saved" : ""}${r.playable ? "" : " unplayable"}`, dataset: { id: r.id } },
      logo,
      el("div", { class: "result-text" },
        el("span", { class: "result-name" }, r.name),
        el("span", { class: "result-details" }, resultDetails(r) || "format unknown"),
        r.playable ? null : el("span", { class: "result-note" }, `This clock ${r.note ?? "cannot play it"}.`)),
      actions);
  }));
}

/** "Try": plays the result's stream for 30 s through the clock (the player shows how it goes). */
async function tryResult(r) {
  const answer = await act($("search-error"), () => client.post("/player/play", { source: r.url, seconds: 30 }));
  if (answer) say($("search-note"), `Trying ${r.name} for 30 s.`);
}

async function saveResult(r, button) {
  button.disabled = true;
  try {
    const station = await client.post("/stations/from-directory", { id: r.id });
    say($("search-error"), "");
    say($("search-note"), `Saved as ${station.name}.`);
    await loadStations();
    renderResults();
  } catch (error) {
    button.disabled = false;
    say($("search-error"), error.message);
  }
}

// MARK: podcasts

function loadPodcasts() {
  return guarded($("podcasts-error"), async () => {
    podcasts = (await client.get("/podcasts")).podcasts;
    renderPodcasts();
    renderSources();
  });
}

/** "12 episodes · newest: Tuesday (2026-11-24)". */
function podcastDetails(p) {
  const newest = p.episodes[0];
  if (!newest) return "no episode with audio in its feed";
  const day = newest.published ? ` (${newest.published.slice(0, 10)})` : "";
  return `${p.episodes.length} episode${p.episodes.length === 1 ? "" : "s"} · newest: ${newest.title}${day}`;
}

function renderPodcasts() {
  $("podcasts-empty").hidden = podcasts.length > 0;
  fill($("podcasts"), podcasts.map((p) => {
    const remove = el("button", { type: "button", class: "small danger" }, "Remove");
    remove.addEventListener("click", () => removePodcast(p, remove));
    return el("li", { class: "podcast", dataset: { name: p.name } },
      el("div", { class: "podcast-text" },
        el("span", { class: "podcast-name" }, podcastSource(p)),
        el("span", { class: "podcast-details" }, podcastDetails(p))),
      remove);
  }));
}

async function addPodcast(event) {
  event.preventDefault();
  const body = { feed: $("p-feed").value.trim() };
  const name = $("p-name").value.trim();
  if (name) body.name = name;
  const button = $("p-add");
  button.disabled = true;
  try {
    await client.post("/podcasts", body);
    for (const id of ["p-feed", "p-name"]) $(id).value = "";
    say($("podcast-error"), "");
    await loadPodcasts();
  } catch (error) {
    say($("podcast-error"), error.message);
  } finally {
    button.disabled = false;
  }
}

async function removePodcast(p, button) {
  if (!confirmed(button, "Remove", "Really?")) return;
  button.disabled = true;
  try {
    await client.delete(`/podcasts/${encodeURIComponent(p.name)}`);
    say($("podcasts-error"), "");
    await loadPodcasts();
  } catch (error) {
    button.disabled = false;
    button.textContent = "Remove"; // refused: asking again starts over
    button.classList.remove("confirm");
    say($("podcasts-error"), error.message);
  }
}

// MARK: programmes

const WHEN_ORDER = ["daily", ...DAYS];

function renderProgrammes(programmes) {
  $("programmes-empty").hidden = programmes.length > 0;
  const groups = new Map();
  const sorted = [...programmes].sort((a, b) => {
    const wa = WHEN_ORDER.indexOf(a.when), wb = WHEN_ORDER.indexOf(b.when);
    const ka = wa < 0 ? 100 : wa, kb = wb < 0 ? 100 : wb;
    return ka - kb || a.when.localeCompare(b.when) || a.begin.localeCompare(b.begin);
  });
  for (const p of sorted) {
    if (!groups.has(p.when)) groups.set(p.when, []);
    groups.get(p.when).push(p);
  }
  fill($("programmes"), [...groups].map(([when, list]) => el("div", { class: "day-group" },
    el("h3", {}, when === "daily" ? "Every day" : DAY_NAMES[when] ?? dayTitle(when)),
    el("ul", { class: "list" }, list.map(programmeItem)))));
}

/** A programme's reserve toggle: "Reserve", or "Reserved ✓" (pressed) while it is; a tap reserves it or cancels
 *  the reservation, then the programmes and what is on air are read again, so that every toggle of it agrees.
 *  A refusal is shown in `problem`. */
function reserveButton(p, problem) {
  const label = p.reserved ? `Reserved: ${p.name}; tap to cancel` : `Reserve ${p.name}`;
  const button = el("button", { type: "button", class: p.reserved ? "small reserved" : "small", "aria-pressed": String(p.reserved),
    "aria-label": label }, p.reserved ? "Reserved ✓" : "Reserve");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await client.request(p.reserved ? "DELETE" : "POST", `/programmes/${p.id}/reserve`, p.reserved ? undefined : {});
      await loadProgrammes();
    } catch (error) {
      button.disabled = false;
      say(problem, error.message);
    }
  });
  return button;
}

/** With a reservation, when its reminder chimes: "chime 5 min before", "chime at the start". */
function reminderText(p) {
  if (!p.reserved || typeof p.remindSeconds !== "number") return null;
  const minutes = Math.round(p.remindSeconds / 60);
  return minutes > 0 ? `chime ${minutes} min before` : "chime at the start";
}

function programmeItem(p) {
  const problem = el("p", { class: "error", role: "alert", hidden: true });
  const button = reserveButton(p, problem);
  const details = [p.stationName, p.host, reminderText(p)].filter(Boolean).join(" · ");
  return el("li", { class: "programme", dataset: { id: p.id } },
    el("div", { class: "programme-text" },
      el("span", { class: "programme-time" }, `${p.begin}–${p.end}`),
      el("span", { class: "programme-name" }, p.name),
      details ? el("span", { class: "programme-details" }, details) : null,
      p.description ? el("span", { class: "programme-details" }, p.description) : null,
      problem),
    button);
}

// MARK: on air now and next

/** Reads what is on air now and next on each station that has programmes (GET /programmes/now?station=…), and
 *  sets a timer to read it again a second after the first of them ends or begins — no polling. */
async function loadOnAir() {
  const asked = ++onAirAsked;
  clearTimeout(onAirTimer);
  const stationsAsked = programmeStations;
  const answers = await Promise.all(stationsAsked.map(async (station) => {
    try {
      return { station, ...(await client.get(`/programmes/now${station ? `?station=${encodeURIComponent(station)}` : ""}`)) };
    } catch (error) {
      return { station, error };
    }
  }));
  if (asked !== onAirAsked) return;
  const failed = answers.find((a) => a.error);
  say($("onair-error"), failed ? failed.error.message : "");
  onAirShown = answers.filter((a) => !a.error && (a.now || a.next));
  renderOnAir(onAirShown);
  const changes = answers.flatMap((a) => [a.now?.ends, a.next?.begins]).filter((t) => typeof t === "number");
  if (!changes.length) return;
  const wait = (Math.min(...changes) - nowSeconds()) * 1000 + 1000;
  onAirTimer = setTimeout(loadOnAir, Math.min(Math.max(wait, 5000), 2 ** 31 - 1));
}

function renderOnAir(answers) {
  $("onair-card").hidden = answers.length === 0 && $("onair-error").hidden;
  const zone = live?.zone;
  const now = new Date(nowSeconds() * 1000);
  fill($("onair"), answers.map((a) => {
    const station = a.station ?? a.now?.stationName ?? a.next?.stationName;
    const rows = [];
    if (a.now) {
      rows.push(onAirRow("now", "Now", `${clockText(new Date(a.now.begins * 1000), zone)}–${clockText(new Date(a.now.ends * 1000), zone)}`, a.now));
    }
    if (a.next) {
      const begins = new Date(a.next.begins * 1000);
      const when = whenText(begins, zone, now);
      const time = when.startsWith("today ") ? `${clockText(begins, zone)}–${clockText(new Date(a.next.ends * 1000), zone)}` : when;
      rows.push(onAirRow("next", "Next", time, a.next, true));
    }
    return el("div", { class: "onair-station", dataset: { station: station ?? "" } },
      station ? el("h3", {}, station) : null, rows);
  }));
}

/** One line of "on air": Now/Next, the times in the clock's zone, the title; the next one with its toggle. */
function onAirRow(kind, label, time, p, reservable = false) {
  const problem = el("p", { class: "error", role: "alert", hidden: true });
  return el("div", { class: `onair-row ${kind}`, dataset: { id: p.id } },
    el("div", { class: "onair-text" },
      el("span", { class: "onair-when" }, el("span", { class: "onair-label" }, label), " ",
        el("span", { class: "onair-time" }, time)),
      el("span", { class: "onair-title" }, p.name),
      problem),
    reservable ? reserveButton(p, problem) : null);
}

// MARK: days off

function loadDaysOff() {
  return guarded($("days-off-error"), async () => {
    const [days, calendars] = await Promise.all([client.get("/days-off"), client.get("/calendars")]);
    renderDaysOff(days.daysOff);
    renderHolidayCalendars(calendars.calendars.filter((c) => c.kind === "daysOff"));
  });
}

/** "Thu 24 Dec 2026", or "Thu 24 Dec – Sat 26 Dec 2026" for a range (the year once when it is the same). */
function daysOffText(day) {
  const text = (iso, withYear) => {
    const [y, m, d] = iso.split("-").map(Number);
    if (!y || !m || !d) return iso;
    const date = new Date(Date.UTC(y, m - 1, d, 12));
    const weekday = formatter("UTC", { weekday: "short" }).format(date);
    const dayMonth = formatter("UTC", { day: "numeric", month: "short" }).format(date);
    return withYear ? `${weekday} ${dayMonth} ${y}` : `${weekday} ${dayMonth}`;
  };
  if (day.first === day.last) return text(day.first, true);
  const sameYear = day.first.slice(0, 4) === day.last.slice(0, 4);
  return `${text(day.first, !sameYear)} – ${text(day.last, true)}`;
}

function renderDaysOff(days) {
  $("days-off-empty").hidden = days.length > 0;
  fill($("days-off"), days.map((day) => {
    const remove = el("button", { type: "button", class: "small danger", "aria-label": `Remove ${day.name}` }, "Remove");
    remove.addEventListener("click", () => removeDayOff(day, remove));
    return el("li", { class: "day-off", dataset: { id: day.id, dates: day.dates } },
      el("div", { class: "day-off-text" },
        el("span", { class: "day-off-dates" }, daysOffText(day)),
        el("span", { class: "day-off-name" }, day.name),
        el("span", { class: "day-off-source" }, day.source ? `from ${day.source}` : "added by hand")),
      remove);
  }));
}

function renderHolidayCalendars(calendars) {
  fill($("holiday-calendars"), calendars.map((c) => el("li", {},
    el("span", { class: "calendar-location" }, c.location),
    c.problem ? el("span", { class: "calendar-problem" }, `Its last refresh failed: ${c.problem}`) : null)));
}

/** Remove asks once more on the same button ("Really?"); an imported day comes back with its calendar's next
 *  import, which the button says. */
async function removeDayOff(day, button) {
  if (!confirmed(button, "Remove", day.source ? "Really? (it returns at the next import)" : "Really?")) return;
  button.disabled = true;
  try {
    await client.delete(`/days-off/${day.id}`);
    say($("days-off-error"), "");
    await Promise.all([loadDaysOff(), loadNext(), loadAlarms()]);
  } catch (error) {
    button.disabled = false;
    say($("days-off-error"), error.message);
  }
}

/** Adds the date, or the range From–Until, with its name; the clock judges the dates with its own sentence. */
async function addDayOff(event) {
  event.preventDefault();
  const first = $("d-first").value;
  const last = $("d-last").value;
  const body = {};
  if (first || last) body.dates = last && last !== first ? `${first}..${last}` : first || last;
  const name = $("d-name").value.trim();
  if (name) body.name = name;
  const button = $("d-add");
  button.disabled = true;
  try {
    await client.post("/days-off", body);
    for (const id of ["d-first", "d-last", "d-name"]) $(id).value = "";
    say($("day-off-error"), "");
    await Promise.all([loadDaysOff(), loadNext(), loadAlarms()]);
  } catch (error) {
    say($("day-off-error"), error.message);
  } finally {
    button.disabled = false;
  }
}

/** Imports a holiday calendar from its address (the clock downloads it); says what the import did. */
async function importHolidays(event) {
  event.preventDefault();
  const button = $("d-import");
  button.disabled = true;
  say($("holidays-done"), "");
  try {
    const answer = await client.post("/days-off/import", { url: $("d-url").value.trim() });
    $("d-url").value = "";
    say($("holidays-error"), "");
    say($("holidays-done"), answer.message);
    await Promise.all([loadDaysOff(), loadNext(), loadAlarms()]);
  } catch (error) {
    say($("holidays-error"), error.message);
  } finally {
    button.disabled = false;
  }
}

// MARK: settings

/** How each known setting is shown, in this order and under these headings; any other key the clock
 *  reports is shown after them by its JSON type. */
const SETTINGS = {
  defaultVolume: { group: "New alarms", label: "Volume", kind: "number", min: 10, max: 100 },
  alarmDuration: { group: "New alarms", label: "Rings for (min)", kind: "duration", scale: 60 },
  fadeIn: { group: "New alarms", label: "Fade-in (s)", kind: "duration", scale: 1 },
  snoozeMinutes: { group: "New alarms", label: "Snooze length (min)", kind: "number", min: 1, max: 60 },
  maxSnoozes: { group: "New alarms", label: "Snoozes allowed", kind: "number", min: 0, max: 20 },
  fallbackTone: { group: "Every alarm", label: "Tone when a station cannot be heard", kind: "choice", choices: ["classic", "chime", "rising"] },
  toneVolume: { group: "Every alarm", label: "Volume of the tone", kind: "number", min: 50, max: 100 },
  catchUp: { group: "Every alarm", label: "A missed alarm still rings within (min)", kind: "duration", scale: 60 },
  isWifi: { group: "Radio", label: "Stream only over Wi-Fi", kind: "bool" },
  sleepDuration: { group: "Radio", label: "Sleep timer length (min)", kind: "duration", scale: 60 },
  sleepFade: { group: "Radio", label: "Sleep timer fade-out (s)", kind: "duration", scale: 1 },
  sleepVolume: { group: "Radio", label: "Sleep timer volume", kind: "number", min: 1, max: 100 },
  dimFrom: { group: "The clock's screen at night", label: "Dim from (empty: never)", kind: "timeOrOff" },
  dimUntil: { group: "The clock's screen at night", label: "Until", kind: "timeOrOff" },
  dimLevel: { group: "The clock's screen at night", label: "Brightness while dimmed (%)", kind: "number", min: 1, max: 100 },
};

function settingSpec(key, value) {
  return SETTINGS[key] ?? {
    label: key,
    kind: typeof value === "boolean" ? "bool" : typeof value === "number" ? "number" : "text",
  };
}

function renderSettings(values) {
  settings = values;
  const known = Object.keys(SETTINGS).filter((key) => key in values);
  const keys = [...known, ...Object.keys(values).filter((key) => !(key in SETTINGS))];
  let group = null;
  const fields = keys.flatMap((key) => {
    const spec = settingSpec(key, values[key]);
    const heading = spec.group ?? "More";
    const field = settingField(key, spec, values[key]);
    if (heading === group) return [field];
    group = heading;
    return [el("h3", {}, heading), field];
  });
  fill($("settings-fields"), fields);
}

/** One setting's input, marked with its key (data-key). */
function settingField(key, spec, value) {
  const id = `set-${key}`;
  if (spec.kind === "bool") {
    return el("label", { class: "switch-field" },
      el("input", { id, type: "checkbox", checked: Boolean(value), dataset: { key } }),
      el("span", {}, spec.label));
  }
  let input;
  if (spec.kind === "choice") {
    input = el("select", { id, dataset: { key } }, spec.choices.map((c) => el("option", { value: c }, c)));
    input.value = String(value);
  } else if (spec.kind === "timeOrOff") {
    input = el("input", { id, inputMode: "numeric", autocomplete: "off", maxLength: 5, placeholder: "22:00", dataset: { key },
      value: value === "off" ? "" : String(value) });
  } else if (spec.kind === "number" || spec.kind === "duration") {
    const shown = spec.kind === "duration" ? value / spec.scale : value;
    input = el("input", { id, type: "number", inputMode: "numeric", step: "any", min: spec.min, max: spec.max, dataset: { key }, value: String(shown) });
  } else {
    input = el("input", { id, type: "text", dataset: { key }, value: String(value) });
  }
  return el("label", { class: "field" }, spec.label, input);
}

/** The settings that differ from what the clock sent, as the API takes them. */
function settingsChanges() {
  const changes = {};
  for (const input of $("settings-fields").querySelectorAll("[data-key]")) {
    const key = input.dataset.key;
    const before = settings[key];
    const spec = settingSpec(key, before);
    let value;
    if (spec.kind === "bool") value = input.checked;
    else if (spec.kind === "timeOrOff") value = input.value.trim() ? timeText(input.value) : "off";
    else if (spec.kind === "number" || spec.kind === "duration") {
      if (input.value === "") continue;
      value = spec.kind === "duration" ? Math.round(Number(input.value) * spec.scale) : Number(input.value);
    } else value = input.value;
    if (value !== before) changes[key] = value;
  }
  return changes;
}

async function saveSettings(event) {
  event.preventDefault();
  const changes = settingsChanges();
  say($("settings-done"), "");
  if (!Object.keys(changes).length) {
    say($("settings-done"), "Nothing changed.");
    return;
  }
  const button = $("settings-save");
  button.disabled = true;
  try {
    renderSettings(await client.patch("/settings", changes));
    say($("settings-error"), "");
    say($("settings-done"), "Saved.");
  } catch (error) {
    say($("settings-error"), error.message);
  } finally {
    button.disabled = false;
  }
}

// MARK: start

function start() {
  buildDayToggles();
  buildZones();
  client.onUnauthorized = showPairing;
  $("pair-form").addEventListener("submit", pair);
  for (const button of $("tabs").querySelectorAll("button")) {
    button.addEventListener("click", () => showTab(button.dataset.tab));
  }
  $("add-alarm").addEventListener("click", () => openEditor(null));
  $("alarm-form").addEventListener("submit", saveAlarm);
  $("f-cancel").addEventListener("click", closeEditor);
  $("f-delete").addEventListener("click", deleteAlarm);
  $("f-skip").addEventListener("click", skipNext);
  $("f-repeat-days").addEventListener("change", showRepeat);
  $("f-days").addEventListener("change", followSkipDaysOff);
  $("f-skip-days-off").addEventListener("change", () => { skipDaysOffTouched = true; });
  $("day-off-form").addEventListener("submit", addDayOff);
  $("holidays-form").addEventListener("submit", importHolidays);
  $("f-repeat-once").addEventListener("change", showRepeat);
  $("f-source").addEventListener("change", showSource);
  $("f-volume").addEventListener("input", showVolume);
  $("ring-snooze").addEventListener("click", () => dismiss("snooze"));
  $("ring-stop").addEventListener("click", () => dismiss("stop"));
  $("player-play").addEventListener("click", play);
  $("player-stop").addEventListener("click", stopPlayer);
  $("player-volume").addEventListener("input", () => { $("player-volume-out").textContent = $("player-volume").value; });
  $("player-volume").addEventListener("change", setVolume);
  $("station-form").addEventListener("submit", addStation);
  $("s-test").addEventListener("click", testStation);
  $("search-form").addEventListener("submit", search);
  $("podcast-form").addEventListener("submit", addPodcast);
  $("settings-form").addEventListener("submit", saveSettings);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && client.token) refreshAll();
  });
  if (client.token) showApp();
  else showPairing();
}

start();
