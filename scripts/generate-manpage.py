#!/usr/bin/env python3
"""Writes reprise(1) from a template and what the command's own argument parser says of itself.

usage: generate-manpage.py BINARY TEMPLATE > reprise.1

BINARY --experimental-dump-help gives every verb, its arguments and their help (swift-argument-parser's ToolInfo);
the template (data/reprise.1.in) holds the prose no parser knows and marks where the generated parts go:
@VERSION@ (from BINARY --version) and @COMMANDS@ (one subsection per verb, nested verbs included). A verb added to
the parser is in the next page built; none can be missed.
"""
import json
import subprocess
import sys

HIDDEN_FLAGS = {"help", "version"}


def roff(text):
    """Text made safe for roff: backslashes and hyphens escaped, no line starting a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join("\\&" + line if line[:1] in (".", "'") else line for line in text.split("\n"))


def flag_name(name):
    return ("-" if name["kind"] == "short" else "--") + name["name"]


def visible(arguments):
    return [a for a in arguments or [] if a.get("shouldDisplay", True)
            and not (a["kind"] == "flag" and a.get("preferredName", {}).get("name") in HIDDEN_FLAGS)]


def synopsis_part(argument):
    value = argument.get("valueName", "value").upper()
    if argument["kind"] == "positional":
        text = f"\\fI{roff(value)}\\fR"
    elif argument["kind"] == "flag":
        text = f"\\fB{roff(flag_name(argument['preferredName']))}\\fR"
    else:
        text = f"\\fB{roff(flag_name(argument['preferredName']))}\\fR \\fI{roff(value)}\\fR"
    if argument.get("isRepeating"):
        text += " ..."
    return f"[{text}]" if argument.get("isOptional") else text


def describe_argument(argument):
    value = argument.get("valueName", "value").upper()
    if argument["kind"] == "positional":
        head = f".I {roff(value)}"
    else:
        names = ", ".join(f"\\fB{roff(flag_name(n))}\\fR" for n in argument.get("names", []))
        head = names + (f" \\fI{roff(value)}\\fR" if argument["kind"] == "option" else "")
    lines = [".TP", head, roff(argument.get("abstract") or "")]
    if argument.get("discussion"):
        lines.append(roff(argument["discussion"]) if isinstance(argument["discussion"], str) else "")
    if argument.get("defaultValue"):
        lines.append(f"(default: {roff(argument['defaultValue'])})")
    return lines


def verbs(command, path):
    lines = []
    for sub in command.get("subcommands", []):
        if not sub.get("shouldDisplay", True) or sub["commandName"] == "help":
            continue
        name = path + [sub["commandName"]]
        arguments = visible(sub.get("arguments"))
        lines.append(".SS " + " ".join(f"\\fB{roff(part)}\\fR" for part in name) + " "
                     + " ".join(synopsis_part(a) for a in arguments))
        lines.append(roff(sub.get("abstract") or ""))
        if sub.get("discussion"):
            lines += [".PP", roff(sub["discussion"].strip())]
        for argument in arguments:
            lines += describe_argument(argument)
        lines += verbs(sub, name)
    return lines


def main():
    binary, template = sys.argv[1], sys.argv[2]
    info = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True,
                                     capture_output=True).stdout)["command"]
    version = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.split()[-1]
    page = open(template, encoding="utf-8").read()
    page = page.replace("@VERSION@", roff(version)).replace("@COMMANDS@", "\n".join(verbs(info, [info["commandName"]])))
    sys.stdout.write(page)


if __name__ == "__main__":
    main()
