#!/usr/bin/env python3
"""Writes aubade(1) in roff from the argument parser's own description of the CLI.

Usage: aubade --experimental-dump-help | deploy/debian/manpage.py VERSION DATE > aubade.1

The input is swift-argument-parser's ToolInfo JSON (serialization version 0): every command, its abstract
and discussion, and every argument with its names, value name, default and help. Nothing about the commands
is written here by hand, so the page cannot drift from `aubade --help`; only the closing sections (files,
exit status, see also) are fixed text. Hidden commands and options (`shouldDisplay: false`) are left out.
"""
import json
import sys


def esc(text):
    """Roff-safe text: backslashes escaped, hyphens as \\- (so options copy and paste), no leading dot."""
    out = []
    for line in str(text).replace("\\", "\\e").replace("-", "\\-").split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def lead(abstract):
    """An abstract as the NAME line wants it: lower-case first letter, no closing full stop."""
    text = abstract.rstrip(".")
    return text[:1].lower() + text[1:]


def flag_names(arg):
    names = arg.get("names") or []
    shown = []
    for n in names:
        prefix = {"long": "--", "short": "-", "longWithSingleDash": "-"}[n["kind"]]
        shown.append(prefix + n["name"])
    return shown


def synopsis_item(arg):
    """One argument as it appears in a synopsis line: [--for <for>], <source>, [--json]."""
    value = arg.get("valueName") or "value"
    if arg["kind"] == "positional":
        text = f"<{value}>"
    else:
        name = (flag_names(arg) or ["--" + value])[0]
        text = name if arg["kind"] == "flag" else f"{name} <{value}>"
    if arg.get("isRepeating"):
        text += " ..."
    return f"[{text}]" if arg.get("isOptional") else text


def visible(items):
    return [i for i in items or [] if i.get("shouldDisplay", True)]


def argument_lines(arg):
    """An .TP entry for one argument."""
    value = arg.get("valueName") or "value"
    if arg["kind"] == "positional":
        head = f"\\fI<{esc(value)}>\\fR"
    else:
        names = ", ".join(f"\\fB{esc(n)}\\fR" for n in flag_names(arg))
        head = names if arg["kind"] == "flag" else f"{names} \\fI<{esc(value)}>\\fR"
    lines = [".TP", head]
    help_text = arg.get("abstract") or ""
    if arg.get("discussion"):
        help_text = (help_text + " " + arg["discussion"]).strip()
    if arg.get("defaultValue") and arg["kind"] != "flag" and "default" not in help_text:
        help_text = (help_text + f" (default: {arg['defaultValue']})").strip()
    lines.append(esc(help_text) if help_text else "")
    return lines


def command_section(cmd, path, out):
    """Every visible subcommand, depth first, as a .SS with its synopsis, text and options."""
    for sub in visible(cmd.get("subcommands")):
        full = path + [sub["commandName"]]
        args = visible(sub.get("arguments"))
        # The options every command shares (--json, --db, --config, --help) are described once, above.
        own = [a for a in args if not is_common(a)]
        out.append(".SS " + esc(" ".join(full)))
        usage = " ".join(synopsis_item(a) for a in own)
        out.append(f"\\fB{esc(' '.join(full))}\\fR {esc(usage)}".rstrip())
        out.append(".br")
        if sub.get("abstract"):
            out.append(esc(sub["abstract"]))
        if sub.get("discussion"):
            out.append(".PP")
            out.append(esc(sub["discussion"]))
        if sub.get("aliases"):
            out.append(".PP")
            out.append("Also: " + esc(", ".join(sub["aliases"])))
        if own:
            out.append(".RS")
            for a in own:
                out.extend(argument_lines(a))
            out.append(".RE")
        command_section(sub, full, out)


COMMON = {"--json", "--db", "--config", "--help", "-h", "--version"}


def is_common(arg):
    return bool(set(flag_names(arg)) & COMMON)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: aubade --experimental-dump-help | manpage.py VERSION DATE > aubade.1")
    version, date = sys.argv[1], sys.argv[2]
    info = json.load(sys.stdin)
    if info.get("serializationVersion") != 0:
        sys.exit(f"manpage.py: unknown dump-help version {info.get('serializationVersion')}")
    root = info["command"]
    name = root["commandName"]
    out = [
        f'.TH {name.upper()} 1 "{date}" "{esc(name)} {esc(version)}" "User Commands"',
        ".SH NAME",
        f"{esc(name)} \\- {esc(lead(root.get('abstract', '')))}",
        ".SH SYNOPSIS",
        f"\\fB{esc(name)}\\fR \\fIcommand\\fR [\\fIoptions\\fR]",
        ".SH DESCRIPTION",
        esc(root.get("discussion") or root.get("abstract", "")),
        ".PP",
        "The commands below are listed with the options of their own. Every command also takes the common",
        "options that follow.",
        ".SH COMMON OPTIONS",
    ]
    # The common options, as the first command that has them describes them.
    seen = set()
    for sub in visible(root.get("subcommands")):
        for a in visible(sub.get("arguments")):
            key = tuple(flag_names(a))
            if is_common(a) and key not in seen:
                seen.add(key)
                out.extend(argument_lines(a))
    out.append(".SH COMMANDS")
    command_section(root, [name], out)
    out += [
        ".SH EXIT STATUS",
        "0 on success; 1 when the machine, the file or the running clock failed or refused;",
        "2 for bad input (a value, an unknown id, a bad config), which changes nothing stored;",
        "3 from \\fBstatus\\fR when no clock is running. \\fBdoctor\\fR exits non\\-zero when an alarm would not be heard.",
        ".SH FILES",
        ".TP",
        "\\fI/etc/aubade/aubade.toml\\fR",
        "The config: paths, HTTP address, sound device, GPIO wiring, sensors.",
        ".TP",
        "\\fI/var/lib/aubade/aubade.sqlite\\fR",
        "Alarms, stations, programmes, settings and history; beside it the backup copy of the schedule",
        "(\\fIaubade.sqlite.schedule.json\\fR) and the control socket (\\fIaubade.sqlite.sock\\fR).",
        ".TP",
        "\\fI/run/aubade/daemon.json\\fR",
        "Where the running clock announces its database, so the CLI finds it without options.",
        ".SH SEE ALSO",
        "\\fBsystemctl\\fR(1), \\fBjournalctl\\fR(1); /usr/share/doc/aubade/README.md",
    ]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
