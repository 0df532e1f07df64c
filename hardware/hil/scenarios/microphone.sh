# Microphone (issue 37, part 4): `aubade verify microphone` plays through the one sound engine into snd-aloop's
# playback (plughw:Loopback,0,0) and listens on a capture subdevice. The loopback's matching capture
# (hw:Loopback,1,0) is fed by that playback: the tone, the chirp and a station are heard. hw:Loopback,0,0's capture is fed only by hw:Loopback,1,0's
# playback, which the clock does not use: silence — or pink noise that aplay plays into it, a loud room that has
# nothing to do with the alarm — the tone (and, in the noise, the station) not heard.

# verify NAME ARGS...: runs `aubade verify microphone ARGS... --json`; leaves NAME.jsonl, VERIFY_RC and the fields.
verify() {
  local name=$1 started; shift
  started=$(now)
  aub verify microphone "$@" --json > "$OUT/$name.jsonl" 2> "$OUT/$name.err"
  VERIFY_RC=$?
  # One JSON object: `d` is it (a dict), or nothing when the command printed none.
  jset "$OUT/$name.jsonl" heard="(d if isinstance(d, dict) else {}).get('heard', 'none')" \
    reason="(d if isinstance(d, dict) else {}).get('reason') or open('$OUT/$name.err').read().strip()" \
    basis="(d if isinstance(d, dict) else {}).get('basis', '')" listened="(d if isinstance(d, dict) else {}).get('listened_s', '')" \
    lag="(d if isinstance(d, dict) else {}).get('lag_s', '')" lost="(d if isinstance(d, dict) else {}).get('lost_s', '')"
  figure "$name: exit $VERIFY_RC in $(ms_between "$started" "$(now)") ms; $reason (decided after $listened s of the sound, lag $lag s, $lost s no evidence)"
}

scenario_microphone() {
  CFG=$T/mic.toml DB=$T/mic.sqlite
  write_config "$CFG"
  grep -q Loopback /proc/asound/cards || { fail "no snd-aloop card"; return; }

  verify mic_tone --device hw:Loopback,1,0 --play tone
  check "the alarm tone looped back into the capture is heard in the room (exit $VERIFY_RC, $basis)" \
    eval "[ $VERIFY_RC = 0 ] && [ '$heard' = true ]"
  verify mic_chirp --device hw:Loopback,1,0
  check "the self-test's quiet chirp is heard too (exit $VERIFY_RC, $basis)" eval "[ $VERIFY_RC = 0 ] && [ '$heard' = true ]"
  if icecast_start; then
    verify mic_stream --device hw:Loopback,1,0 --play "$STREAM_URL" --allow-local
    check "a station looped back is heard by its level (exit $VERIFY_RC, $basis)" eval "[ $VERIFY_RC = 0 ] && [ '$heard' = true ]"
  else
    skip "the local Icecast server did not serve the stream"
  fi

  verify mic_silence --device hw:Loopback,0,0 --play tone
  check "on a capture the playback does not feed (silence) the tone is not heard (exit $VERIFY_RC)" \
    eval "[ $VERIFY_RC = 1 ] && [ '$heard' = false ]"
  local noise
  sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 60 pinknoise vol 0.5 2> /dev/null | aplay -q -D hw:Loopback,1,0 - 2> "$OUT/mic-noise.err" &
  noise=$!
  sleep 0.5
  verify mic_noise --device hw:Loopback,0,0 --play tone
  check "with loud pink noise in that capture instead, the tone is still not heard (exit $VERIFY_RC)" \
    eval "[ $VERIFY_RC = 1 ] && [ '$heard' = false ]"
  if [ -n "${STREAM_URL:-}" ]; then
    verify mic_noise_stream --device hw:Loopback,0,0 --play "$STREAM_URL" --allow-local
    check "nor is the station, by its level, with that noise (exit $VERIFY_RC)" eval "[ $VERIFY_RC = 1 ] && [ '$heard' = false ]"
  fi
  kill "$noise" 2> /dev/null; pkill -P "$noise" 2> /dev/null; wait "$noise" 2> /dev/null

  printf '[verify]\nmicrophone = "hw:Loopback,1,0"\n' >> "$CFG"
  aub doctor --json > "$OUT/mic-doctor.json" 2> "$OUT/mic-doctor.err"
  jset "$OUT/mic-doctor.json" mic="[c['message'] for c in d['checks'] if c['check'] == 'microphone'][0]" \
    mic_ok="'opens' in [c['message'] for c in d['checks'] if c['check'] == 'microphone'][0]"
  check "doctor has a microphone line that opens the device ($mic)" $mic_ok
}
