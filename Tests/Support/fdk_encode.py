#!/usr/bin/env python3
"""Encodes a 16-bit PCM WAV to ADTS AAC with Fraunhofer's libfdk-aac through ctypes: the HE-AAC test media, which
Debian's FFmpeg cannot make (its only AAC encoder does LC). The library comes from Debian's own archive, its non-free
component (`libfdk-aac2`), unpacked into the build folder by Tests/Support/fdk_aac.sh; it is used at test time only
and never linked into nor shipped with Aubade.

    python3 fdk_encode.py LIB.so AOT BITRATE in.wav out.aac     (AOT 2 = LC, 5 = HE-AAC v1 (SBR), 29 = HE-AAC v2 (PS))
"""
import ctypes as C, sys, wave
lib_path, aot, bitrate, src, dst = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
fdk = C.CDLL(lib_path)
class BufDesc(C.Structure):
    _fields_ = [("numBufs", C.c_int), ("bufs", C.POINTER(C.c_void_p)), ("bufferIdentifiers", C.POINTER(C.c_int)),
                ("bufSizes", C.POINTER(C.c_int)), ("bufElSizes", C.POINTER(C.c_int))]
class InArgs(C.Structure):
    _fields_ = [("numInSamples", C.c_int), ("numAncBytes", C.c_int)]
class OutArgs(C.Structure):
    _fields_ = [("numOutBytes", C.c_int), ("numInSamples", C.c_int), ("numAncBytes", C.c_int), ("bitResState", C.c_int)]
class Info(C.Structure):
    _fields_ = [(n, C.c_uint) for n in ("maxOutBufBytes", "maxAncBytes", "inBufFillLevel", "inputChannels",
                "frameLength", "nDelay", "nDelayCore")] + [("confBuf", C.c_ubyte * 64), ("confSize", C.c_uint)]
def check(err, what):
    if err not in (0,):
        sys.exit(f"{what} failed: 0x{err:x}")
w = wave.open(src, "rb"); channels, rate = w.getnchannels(), w.getframerate(); assert w.getsampwidth() == 2
pcm = w.readframes(w.getnframes())
h = C.c_void_p()
check(fdk.aacEncOpen(C.byref(h), 0, channels), "aacEncOpen")
for param, value in ((0x0100, aot), (0x0101, bitrate), (0x0103, rate), (0x0106, channels), (0x0300, 2), (0x0200, 1)):
    check(fdk.aacEncoder_SetParam(h, param, value), f"SetParam 0x{param:x}={value}")  # AOT, BITRATE, SAMPLERATE, CHANNELMODE, TRANSMUX=ADTS, AFTERBURNER
check(fdk.aacEncEncode(h, None, None, None, None), "initialise")
info = Info(); check(fdk.aacEncInfo(h, C.byref(info)), "aacEncInfo")
chunk = info.frameLength * channels * 2
out = C.create_string_buffer(20480); result = bytearray()
def desc(ptr, ident, size, el):
    return BufDesc(1, C.pointer(C.c_void_p(C.cast(ptr, C.c_void_p).value)), C.pointer(C.c_int(ident)),
                   C.pointer(C.c_int(size)), C.pointer(C.c_int(el)))
pos = 0
while True:
    block = pcm[pos:pos + chunk]; pos += len(block)
    inbuf = C.create_string_buffer(block, max(len(block), 2))
    in_args = InArgs(len(block) // 2 if block else -1, 0); out_args = OutArgs()  # -1: flush
    err = fdk.aacEncEncode(h, C.byref(desc(inbuf, 0, len(block), 2)), C.byref(desc(out, 3, len(out), 1)),
                           C.byref(in_args), C.byref(out_args))
    if err == 0x80:  # AACENC_ENCODE_EOF
        break
    check(err, "aacEncEncode")
    result += out.raw[:out_args.numOutBytes]
open(dst, "wb").write(result)
fdk.aacEncClose(C.byref(h))
print(f"{dst}: {len(result)} bytes, AOT {aot}, {bitrate} bit/s, {rate} Hz, {channels} ch, frame {info.frameLength}")
