"""The clock's MQTT face against a real Home Assistant core (ha_rig.py says what runs): Home Assistant takes every
component of the clock's discovery document; its next-alarm sensor, the alarm switches and the ringing state follow
edits made with the CLI, through the phone page's API and by Home Assistant itself; and a Home Assistant
automation stops a ringing alarm, after which the sound card gets no more than its device already held; the top
of an unanswered alarm's ladder and a wake-up check reach its event entity; and the bed shaker and the lamp are
switches Home Assistant turns and sees turned (on simulated lines: this machine has no GPIO).

One broker and one Home Assistant serve every test (Home Assistant takes a while to start); each test has a clock
of its own (its own client id, so its own device and topics, as two clocks on one broker are). The clocks' wall
clocks are the daemon's --fake-time: an alarm comes seconds after the daemon starts.
"""

import json
import os
import signal
import unittest
from array import array
from pathlib import Path

import ha_rig
from ha_rig import Broker, Clock, HomeAssistant, Watcher

ROOT = Path(__file__).resolve().parents[2]
AUBADE = os.environ.get("AUBADE_BIN") or str(ROOT / ".build" / "debug" / "aubade")
RATE = 44100  # the file card's frames a second (S16_LE stereo: 4 bytes a frame)
# What may still reach the card once a stop is reported: the chunk being written then (1024 frames) and what the
# device held (200 ms). An alarm still sounding adds 44 100 frames a second.
AFTER_A_STOP = 1024 + 8820
# A Tuesday, and the day before the alarms of the ringing tests.
TUESDAY_NOON = "2031-03-04T12:00:00Z"

broker = watcher = home = folder = None


def setUpModule():
    global broker, watcher, home, folder
    folder = ha_rig.fresh_folder("aubade-ha-")
    broker = Broker(folder)
    watcher = Watcher(broker)
    home = HomeAssistant(broker, watcher, folder)
    home.start()


def tearDownModule():
    try:
        if home:
            home.stop()
            problems = home.log_problems(["mqtt", "aubade"])
            if problems:
                raise AssertionError("Home Assistant logged problems with MQTT:\n" + "\n".join(problems))
    finally:
        if watcher:
            watcher.close()
        if broker:
            broker.close()
        if folder and os.environ.get("AUBADE_ARTEFACTS"):
            ha_rig.keep_logs(folder, Path(os.environ["AUBADE_ARTEFACTS"]) / "homeassistant")
        if os.environ.get("AUBADE_KEEP_HA") != "1":
            ha_rig.remove(folder)


class HomeAssistantTest(unittest.TestCase):
    def clock(self, node, device_name):
        """A clock whose daemon will publish as `node`, removed when the test ends; Home Assistant's log from now
        on is checked for problems with it."""
        log = home.log_mark()
        self.addCleanup(lambda: self.assertEqual(
            home.log_problems(["mqtt", node, f"aubade/{node}"], after=log), [], "Home Assistant's log"))
        clock = Clock(AUBADE, node, device_name)
        self.addCleanup(clock.close)
        return clock

    def entities(self, clock):
        """Home Assistant's registry entries for every component of the clock's discovery document, by component key
        (`next_alarm`, `alarm_1`, ...), once it has registered them all."""
        components = self.document(clock)["components"]
        entries = home.wait_for_entities([c["unique_id"] for c in components.values()])
        return {key: entries[c["unique_id"]] for key, c in components.items()}

    def document(self, clock):
        return json.loads(watcher.wait(clock.discovery_topic, lambda p: p != ""))

    def add_alarm(self, clock, name, time, days="daily"):
        added = clock.cli_json("alarm", "add", "--name", name, "--time", time, "--days", days, "--source", "tone",
                               "--duration", "5m", "--fade-in", "0s")
        return added["id"]

    def alarm(self, clock, alarm_id):
        return next(a for a in clock.cli_json("alarm", "list")["alarms"] if a["id"] == alarm_id)

    # The phone page's API

    def pair(self, clock):
        """A token as the phone page gets one: a pairing code asked for on the clock's own machine (the kiosk's
        'Pair a phone'), traded for a token."""
        status, answer = clock.api("POST", "/pair/code", {})
        self.assertEqual(status, 201, answer)
        status, answer = clock.api("POST", "/pair", {"code": answer["code"], "name": "phone"})
        self.assertEqual(status, 201, answer)
        return answer["token"]

    def write(self, clock, token, method, path, body=None):
        status, answer = clock.api(method, path, body, token=token)
        self.assertLess(status, 300, f"{method} {path}: {status} {answer}")
        return answer

    # What reached the sound card

    def card_frames(self, clock):
        return clock.card.stat().st_size // 4 if clock.card.exists() else 0

    def loudest(self, clock, frames):
        """The loudest sample among the card's first `frames` frames."""
        samples = array("h")
        with open(clock.card, "rb") as card:
            samples.frombytes(card.read(frames * 4))
        return max((abs(s) for s in samples), default=0)


class DiscoveryTests(HomeAssistantTest):
    def test_home_assistant_takes_every_component_of_the_clock(self):
        clock = self.clock("aubade-ha-every", "Every Part")
        clock.cli("station", "add", "--name", "FIP", "--url", "http://127.0.0.1:9/fip")
        work = self.add_alarm(clock, "Work", "07:30", "mon-fri")
        weekend = self.add_alarm(clock, "Weekend", "09:00", "sat,sun")
        clock.start_with(broker, fake_time=TUESDAY_NOON)

        document = self.document(clock)
        components = document["components"]
        expected = {"next_alarm", "next_alarm_name", "state", "ringing", "stop", "snooze", "skip_next", "volume",
                    "station", "sleep_timer", "now_playing", "sunrise", "alarm_event"}
        for alarm_id in (work, weekend):
            expected |= {f"alarm_{alarm_id}", f"alarm_{alarm_id}_time", f"alarm_{alarm_id}_days"}
        self.assertEqual(set(components), expected)
        entities = self.entities(clock)
        for key, component in components.items():
            entry = entities[key]
            self.assertEqual(entry["entity_id"].split(".")[0], component["platform"], key)
            self.assertIsNone(entry["disabled_by"], key)
        # One device, the clock, holds them all.
        devices = {entry["device_id"] for entry in entities.values()}
        self.assertEqual(len(devices), 1, devices)
        device = ha_rig.wait_until("the clock's device in the device registry",
                                   lambda: next((d for d in home.devices() if d["id"] in devices), None))
        self.assertEqual(device["name"], "Every Part")
        self.assertIn(["mqtt", "aubade-ha-every"], device["identifiers"])

        # The states Home Assistant recorded are the clock's.
        states = {
            "next_alarm": "2031-03-05T07:30:00+00:00",
            "next_alarm_name": "Work",
            "state": "idle",
            "ringing": "off",
            f"alarm_{work}": "on",
            f"alarm_{work}_time": "07:30",
            f"alarm_{weekend}_time": "09:00",
            f"alarm_{weekend}_days": "sat,sun",
            "station": "off",
            "sleep_timer": "0",
        }
        for key, state in states.items():
            home.wait_state(entities[key]["entity_id"], state)
        self.assertEqual(entities["station"]["capabilities"]["options"], ["off", "FIP"])
        switch = home.states(entities[f"alarm_{work}"]["entity_id"])[-1][2]
        self.assertEqual((switch["time"], switch["source"]), ("07:30", "tone"), switch)
        clock.stop()
        home.wait_state(entities["next_alarm"]["entity_id"], "unavailable")


class EditTests(HomeAssistantTest):
    def test_the_next_alarm_and_the_switches_follow_the_cli_the_phone_page_and_home_assistant(self):
        clock = self.clock("aubade-ha-edits", "Edits")
        work = self.add_alarm(clock, "Work", "07:30", "mon-fri")
        gym = self.add_alarm(clock, "Gym", "06:00", "sat")
        clock.start_with(broker, fake_time=TUESDAY_NOON)
        entities = self.entities(clock)
        next_alarm = entities["next_alarm"]["entity_id"]
        name = entities["next_alarm_name"]["entity_id"]
        switch = entities[f"alarm_{work}"]["entity_id"]
        time = entities[f"alarm_{work}_time"]["entity_id"]
        home.wait_state(next_alarm, "2031-03-05T07:30:00+00:00")
        home.wait_state(switch, "on")
        wednesday = "2031-03-05T{}:00+00:00"
        saturday_gym = "2031-03-08T06:00:00+00:00"
        self.assertEqual(home.state(entities[f"alarm_{gym}"]["entity_id"]), "on")

        # (a) The CLI.
        mark = home.mark()
        clock.cli("alarm", "disable", str(work))
        home.wait_state(switch, "off", after=mark)
        home.wait_state(next_alarm, saturday_gym, after=mark)
        home.wait_state(name, "Gym", after=mark)
        mark = home.mark()
        clock.cli("alarm", "enable", str(work))
        clock.cli("alarm", "edit", str(work), "--time", "06:45")
        home.wait_state(switch, "on", after=mark)
        home.wait_state(time, "06:45", after=mark)
        home.wait_state(next_alarm, wednesday.format("06:45"), after=mark)

        # (b) The phone page's API, with the token the phone gets by pairing.
        token = self.pair(clock)
        mark = home.mark()
        self.write(clock, token, "PATCH", f"/alarms/{work}", {"time": "07:10"})
        home.wait_state(time, "07:10", after=mark)
        home.wait_state(next_alarm, wednesday.format("07:10"), after=mark)
        mark = home.mark()
        self.write(clock, token, "POST", f"/alarms/{work}/disable")
        home.wait_state(switch, "off", after=mark)
        home.wait_state(next_alarm, saturday_gym, after=mark)
        mark = home.mark()
        self.write(clock, token, "POST", f"/alarms/{work}/enable")
        home.wait_state(switch, "on", after=mark)
        home.wait_state(next_alarm, wednesday.format("07:10"), after=mark)

        # (c) Home Assistant itself: automations (triggered here over MQTT) set the time text and turn the switch
        # off; Home Assistant publishes the commands, the clock carries them out, and its states come back.
        set_time = f"aubade-ha-test/{clock.node}/set-time"
        turn_off = f"aubade-ha-test/{clock.node}/turn-off"
        home.set_automations([
            {"id": f"{clock.node}_set_time", "alias": "Set the Work alarm's time",
             "triggers": [{"trigger": "mqtt", "topic": set_time}],
             "actions": [{"action": "text.set_value", "target": {"entity_id": time},
                          "data": {"value": "{{ trigger.payload }}"}}]},
            {"id": f"{clock.node}_turn_off", "alias": "Turn the Work alarm off",
             "triggers": [{"trigger": "mqtt", "topic": turn_off}],
             "actions": [{"action": "switch.turn_off", "target": {"entity_id": switch}}]},
        ], mqtt_topics=[set_time, turn_off])
        mark, sent = home.mark(), watcher.mark()
        watcher.publish(set_time, "06:20")
        self.assertEqual(watcher.wait(clock.topic(f"alarm/{work}/time/set"), after=sent), "06:20")
        home.wait_state(time, "06:20", after=mark)
        home.wait_state(next_alarm, wednesday.format("06:20"), after=mark)
        self.assertEqual(self.alarm(clock, work)["time"], "06:20")
        mark, sent = home.mark(), watcher.mark()
        watcher.publish(turn_off, "now")
        self.assertEqual(watcher.wait(clock.topic(f"alarm/{work}/enabled/set"), after=sent), "OFF")
        home.wait_state(switch, "off", after=mark)
        home.wait_state(next_alarm, saturday_gym, after=mark)
        home.wait_state(name, "Gym", after=mark)
        self.assertFalse(self.alarm(clock, work)["enabled"])
        clock.stop()


class RingingTests(HomeAssistantTest):
    """The ringing state as Home Assistant records it, and who stops the alarm. Each ring is a daemon started a few
    seconds before 08:00 of a later day (its fake time), on the same database."""

    def ring(self, clock, day):
        """Starts the daemon 3 s before the Work alarm (08:00) on 2031-03-`day` and returns once it rings."""
        clock.start_with(broker, fake_time=f"2031-03-{day:02d}T07:59:57Z")
        return clock.wait_for("ringing")

    def prepare(self, node, name):
        """A clock with the daily Work alarm at 08:00 (the tone, no fade), its entities registered by Home
        Assistant (the daemon started once the day before, then stopped)."""
        clock = self.clock(node, name)
        work = self.add_alarm(clock, "Work", "08:00")
        clock.start_with(broker, fake_time=TUESDAY_NOON)
        entities = self.entities(clock)
        home.wait_state(entities["ringing"]["entity_id"], "off")
        clock.stop()
        return clock, work, entities

    def test_the_ringing_state_follows_stops_from_the_cli_and_the_phone_page(self):
        clock, work, entities = self.prepare("aubade-ha-ring", "Ring")
        ringing = entities["ringing"]["entity_id"]
        state = entities["state"]["entity_id"]
        event = entities["alarm_event"]["entity_id"]

        def dismissed(how):
            return lambda state, attributes: attributes.get("event_type") == "dismissed" and attributes.get("how") == how

        mark = home.mark()
        self.assertEqual(self.ring(clock, 5)["alarm"], work)
        on = home.wait_state(ringing, "on", after=mark)
        home.wait_state(state, "ringing", after=mark)
        clock.cli("stop")
        self.assertEqual(clock.wait_for("stopped").get("by"), "cli")
        home.wait_state(ringing, "off", after=on)
        home.wait_state(state, "idle", after=on)
        home.wait_state(event, dismissed("cli"), after=on)
        clock.stop()

        mark = home.mark()
        self.ring(clock, 6)
        on = home.wait_state(ringing, "on", after=mark)
        token = self.pair(clock)
        self.write(clock, token, "POST", "/alarm/stop", {})
        self.assertEqual(clock.wait_for("stopped").get("by"), "api")
        home.wait_state(ringing, "off", after=on)
        home.wait_state(event, dismissed("page"), after=on)
        clock.stop()
        dismissed = [detail for kind, detail in clock.history() if kind == "dismissed"]
        self.assertEqual(dismissed, ["by=cli", "by=api"])

    def test_a_home_assistant_automation_stops_the_ringing_alarm(self):
        clock, work, entities = self.prepare("aubade-ha-stop", "Stop")
        ringing = entities["ringing"]["entity_id"]
        event = entities["alarm_event"]["entity_id"]
        # When the clock rings, Home Assistant presses its Stop button (after a few seconds, so that the tone is
        # on the card first).
        home.set_automations([
            {"id": f"{clock.node}_stop", "alias": "Stop the clock when it rings",
             "triggers": [{"trigger": "state", "entity_id": ringing, "to": "on"}],
             "actions": [{"delay": {"seconds": 4}},
                         {"action": "button.press", "target": {"entity_id": entities["stop"]["entity_id"]}}]},
        ])

        mark, sent = home.mark(), watcher.mark()
        self.assertEqual(self.ring(clock, 5)["alarm"], work)
        on = home.wait_state(ringing, "on", after=mark)
        stopped = clock.wait_for("stopped")
        at_stop = self.card_frames(clock)
        self.assertEqual(stopped.get("by"), "mqtt", stopped)
        self.assertLess(clock.position("ringing"), clock.position("stopped"))
        # The stop came from Home Assistant's button, after the clock said it rang (nothing else publishes there).
        self.assertEqual(watcher.wait(clock.topic("cmd"), after=sent), "stop")
        self.assertEqual([p for t, p, _ in watcher.messages[sent:] if t == clock.topic("cmd")], ["stop"])
        off = home.wait_state(ringing, "off", after=on)
        home.wait_state(event, lambda state, attributes: attributes.get("event_type") == "dismissed"
                        and attributes.get("how") == "mqtt", after=mark)
        self.assertIn(("dismissed", "by=mqtt"), clock.history())

        # The card: the tone was loud before the stop, and after it only what the device already held.
        self.assertEqual(clock.kill(signal.SIGTERM), 0)
        after = self.card_frames(clock) - at_stop
        self.assertGreater(at_stop, RATE, "the tone reached the card before the stop")
        self.assertGreater(self.loudest(clock, at_stop), 10000, "the tone was loud before the stop")
        self.assertLessEqual(after, AFTER_A_STOP, f"{after} frames reached the card after the stop")
        self.assertGreater(off, on)


class EscalationTests(HomeAssistantTest):
    """What nobody-sleeps-through-it tells Home Assistant, through its real event entity: the top of an unanswered
    alarm's ladder (`unanswered`, which an automation can turn into a phone call) and its end, and a wake-up check
    asked and answered by Home Assistant's own Stop button. Two clocks run at once, so the test waits once for the
    ladder's climb (30-s steps) and the check's minute."""

    def test_an_unanswered_climb_and_a_wake_up_check_reach_home_assistant_and_its_automations(self):
        climb = self.clock("aubade-ha-climb", "Climb")
        check = self.clock("aubade-ha-check", "Check")
        climb.with_outputs({"shaker": ("GPIO16", "steady")})   # switched on at the ladder's top
        steep = climb.cli_json("alarm", "add", "--name", "Deep sleep", "--time", "08:00", "--days", "daily",
                               "--source", "tone", "--duration", "1m", "--fade-in", "0s",
                               "--ladder", "step=30s,rounds=0")["id"]
        work = check.cli_json("alarm", "add", "--name", "Work", "--time", "08:00", "--days", "daily",
                              "--source", "tone", "--duration", "5m", "--fade-in", "0s",
                              "--wake-check", "1m")["id"]
        entities = {}
        for clock in (climb, check):
            clock.start_with(broker, fake_time=TUESDAY_NOON)
            entities[clock.node] = self.entities(clock)
            home.wait_state(entities[clock.node]["ringing"]["entity_id"], "off")
            clock.stop()
        climb_event = entities[climb.node]["alarm_event"]["entity_id"]
        check_event = entities[check.node]["alarm_event"]["entity_id"]
        # Home Assistant's part: when the climb reaches its top, an automation tells someone (here a topic the test
        # reads, where a real one would call a phone); when the other clock asks "Are you up?", an automation
        # presses its Stop button, which answers the check.
        call = f"aubade-ha-test/{climb.node}/call-a-phone"
        home.set_automations([
            {"id": f"{climb.node}_call", "alias": "Call a phone when the alarm rings unanswered",
             "triggers": [{"trigger": "state", "entity_id": climb_event}],
             "conditions": [{"condition": "template",
                             "value_template": "{{ trigger.to_state.attributes.event_type == 'unanswered' }}"}],
             "actions": [{"action": "mqtt.publish", "data": {"topic": call, "payload": "call"}}]},
            {"id": f"{check.node}_answer", "alias": "Answer the wake-up check",
             "triggers": [{"trigger": "state", "entity_id": check_event}],
             "conditions": [{"condition": "template",
                             "value_template": "{{ trigger.to_state.attributes.event_type == 'wake_check' and "
                                               "trigger.to_state.attributes.answer == 'asked' }}"}],
             "actions": [{"action": "button.press",
                          "target": {"entity_id": entities[check.node]["stop"]["entity_id"]}}]},
        ])

        mark, sent = home.mark(), watcher.mark()
        climb.start_with(broker, fake_time="2031-03-05T07:59:57Z")
        check.start_with(broker, fake_time="2031-03-05T07:59:57Z")
        self.assertEqual(check.wait_for("ringing")["alarm"], work)
        check.cli("stop")
        self.assertEqual(check.wait_for("stopped").get("by"), "cli")

        def event(kind, **fields):
            return lambda state, attributes: attributes.get("event_type") == kind and all(
                attributes.get(k) == v for k, v in fields.items())

        # The check: dismissed by the CLI, asked a minute later, answered by Home Assistant's Stop. Each wait that
        # spans a known stretch of the clock's time gets that stretch on top of the watchdog (CI saw the check asked
        # just past a bare 60-s watchdog).
        dismissed = home.wait_state(check_event, event("dismissed", how="cli"), after=mark)
        asked = home.wait_state(check_event, event("wake_check", answer="asked"), after=dismissed,
                                timeout=ha_rig.WATCHDOG + 60)
        self.assertEqual(watcher.wait(check.topic("cmd"), after=sent), "stop")
        woke = home.wait_state(check_event, event("wake_check", answer="woke"), after=asked)
        self.assertGreater(woke, asked)
        check.wait_for("woke")
        self.assertEqual([k for k, _ in check.history() if k in ("dismissed", "wake-check", "woke", "fell-back-asleep")],
                         ["dismissed", "wake-check", "woke"])

        # The climb: ringing, then its top (unanswered, which the automation acted on), then its end.
        self.assertEqual(climb.wait_for("ringing")["alarm"], steep)
        rang = home.wait_state(climb_event, event("ringing"), after=mark)
        top = home.wait_state(climb_event, event("unanswered"), after=rang, timeout=ha_rig.WATCHDOG + 90)
        self.assertEqual(watcher.wait(call, after=sent), "call")
        # The top also switches the bed shaker on: its line, and Home Assistant's switch, until the end.
        shaker = entities[climb.node]["output_shaker"]["entity_id"]
        shaking = home.wait_state(shaker, "on", after=rang)
        on_at = climb.wait_output("shaker", True)
        ended = home.wait_state(climb_event, event("dismissed", how="unanswered"), after=top,
                                timeout=ha_rig.WATCHDOG + 30)
        self.assertGreater(ended, top)
        home.wait_state(shaker, "off", after=shaking)
        climb.wait_output("shaker", False, after=on_at)
        climb.wait_for("unanswered")
        kinds = [k for k, _ in climb.history()]
        self.assertIn("escalated", kinds)
        self.assertLess(kinds.index("escalated"), kinds.index("unanswered"))
        self.assertNotIn("auto-silenced", kinds)
        for clock in (climb, check):
            clock.stop()


class OutputTests(HomeAssistantTest):
    """The bed shaker and the lamp are Home Assistant switches: Home Assistant turns them (an automation here, a
    person's dashboard at home) and sees them turned by the phone page. This machine has no GPIO, so the clock runs
    its outputs on simulated lines (`--simulate-outputs`): the driver's thread and its patterns are the clock's own
    and each level they take is recorded. On real lines the same switch is tested under systemd in the HIL VM."""

    def test_home_assistant_switches_the_shaker_and_sees_the_lamp_switched_by_the_phone(self):
        clock = self.clock("aubade-ha-outputs", "Outputs")
        clock.with_outputs({"shaker": ("GPIO16", "200/200"), "lamp": ("GPIO20", "steady")})
        clock.start_with(broker, fake_time=TUESDAY_NOON)
        entities = self.entities(clock)
        shaker, lamp = entities["output_shaker"]["entity_id"], entities["output_lamp"]["entity_id"]
        self.assertEqual((shaker.split(".")[0], lamp.split(".")[0]), ("switch", "switch"))
        home.wait_state(shaker, "off")
        home.wait_state(lamp, "off")
        held = clock.output_trace()
        self.assertEqual(sorted((r["output"], r["line"]) for r in held if r["event"] == "request"),
                         [("lamp", "GPIO20"), ("shaker", "GPIO16")])
        self.assertFalse(any(r["active"] for r in held), held)

        # Home Assistant turns the shaker on and off (automations triggered here over MQTT).
        turn_on, turn_off = (f"aubade-ha-test/{clock.node}/shaker-{w}" for w in ("on", "off"))
        home.set_automations([
            {"id": f"{clock.node}_{w}", "alias": f"Shaker {w}", "triggers": [{"trigger": "mqtt", "topic": topic}],
             "actions": [{"action": f"switch.turn_{w}", "target": {"entity_id": shaker}}]}
            for w, topic in (("on", turn_on), ("off", turn_off))
        ], mqtt_topics=[turn_on, turn_off])
        mark, sent, at = home.mark(), watcher.mark(), len(clock.output_trace())
        watcher.publish(turn_on, "now")
        self.assertEqual(watcher.wait(clock.topic("output/shaker/set"), after=sent), "ON")
        on = home.wait_state(shaker, "on", after=mark)
        # Its line follows its 200/200 pattern: on, off, on again.
        at = clock.wait_output("shaker", True, after=at)
        at = clock.wait_output("shaker", False, after=at)
        at = clock.wait_output("shaker", True, after=at)
        self.assertEqual(home.state(lamp), "off")
        sent = watcher.mark()
        watcher.publish(turn_off, "now")
        self.assertEqual(watcher.wait(clock.topic("output/shaker/set"), after=sent), "OFF")
        off = home.wait_state(shaker, "off", after=on)
        clock.wait_output("shaker", False, after=at)
        self.assertGreater(off, on)

        # The phone page's API switches the lamp; Home Assistant's switch follows.
        token = self.pair(clock)
        mark, at = home.mark(), len(clock.output_trace())
        self.write(clock, token, "POST", "/outputs/lamp", {"on": True})
        at = clock.wait_output("lamp", True, after=at)
        lit = home.wait_state(lamp, "on", after=mark)
        self.write(clock, token, "POST", "/outputs/lamp", {"on": False})
        clock.wait_output("lamp", False, after=at)
        home.wait_state(lamp, "off", after=lit)

        # The clock's end drives every line inactive and lets it go.
        clock.stop()
        records = clock.output_trace()
        last = {r["output"]: r for r in records}
        self.assertEqual({name: (r["event"], r["active"]) for name, r in last.items()},
                         {"shaker": ("release", False), "lamp": ("release", False)})
        # The shaker's pattern stopped with Home Assistant's "off": after its last inactive set, only the release.
        shaker_sets = [r for r in records if r["output"] == "shaker" and r["event"] == "set"]
        self.assertFalse(shaker_sets[-1]["active"], shaker_sets[-3:])


if __name__ == "__main__":
    unittest.main()
