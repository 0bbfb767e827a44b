"""What an unmodified Perl script hands to ``printf``, at full precision.

Some scripts print their scores only through ``printf "%.4f"`` (``mteval-v11b.pl``,
``mteval-v12.pl``) or ``"%.2f"`` (multi-bleu): four decimals cannot say whether a
reimplementation is right bit for bit. Perl lets a handle be *tied*: with STDOUT tied to
:data:`MODULE` (loaded by ``perl -MPrintfArgs``, before the script's first line runs), each
``printf`` the script makes still prints exactly what it printed before, and its format and
arguments are also written to a side file, every number as ``%.17g`` (which gives the double
back exactly). The script's own text is not touched; ``print`` passes through unrecorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: The Perl module: the format and arguments of each ``printf`` to STDOUT, one line per call,
#: tab-separated, with ``\\``, tab and newline escaped; numbers as ``%.17g``.
MODULE = r"""package PrintfArgs;
use strict;
use warnings;
use Scalar::Util qw(looks_like_number);

open(my $real, '>&', \*STDOUT) or die "PrintfArgs: cannot duplicate STDOUT: $!";
open(my $log, '>', $ENV{PRINTF_ARGS}) or die "PrintfArgs: cannot write '$ENV{PRINTF_ARGS}': $!";
binmode $log, ':utf8';
$log->autoflush(1);
tie *STDOUT, 'PrintfArgs';

sub escaped {
    my ($text) = @_;
    return '' unless defined $text;
    $text =~ s/\\/\\\\/g;
    $text =~ s/\t/\\t/g;
    $text =~ s/\n/\\n/g;
    return $text;
}

sub TIEHANDLE { return bless {}, shift }
sub PRINT { shift; return print {$real} @_ }
sub PRINTF {
    shift;
    my $format = shift;
    print {$log} join("\t", escaped($format),
        map { defined $_ && looks_like_number($_) ? sprintf('%.17g', $_) : escaped($_) } @_), "\n";
    return printf {$real} $format, @_;
}
sub BINMODE { shift; return @_ ? binmode($real, $_[0]) : binmode($real) }
sub FILENO { return fileno($real) }
sub CLOSE { return close($real) }
1;
"""

MODULE_NAME = "PrintfArgs"
#: The environment variable that names the side file.
LOG_VARIABLE = "PRINTF_ARGS"


@dataclass(frozen=True)
class PrintfCall:
    """One ``printf``: its format and its arguments (numbers as ``%.17g`` text)."""

    format: str
    arguments: tuple[str, ...]

    def number(self, index: int = 0) -> float:
        """Argument ``index`` as the double Perl held."""
        return float(self.arguments[index])


def install(folder: Path) -> list[str]:
    """Writes the module into ``folder``; the Perl arguments that load it (before the
    script's path)."""
    (folder / f"{MODULE_NAME}.pm").write_text(MODULE, encoding="utf-8")
    return ["-I", str(folder), f"-M{MODULE_NAME}"]


def _unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append({"n": "\n", "t": "\t", "\\": "\\"}.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def read_log(path: Path) -> tuple[PrintfCall, ...]:
    """The calls recorded in ``path`` (none if the script died before its first ``printf``)."""
    if not path.exists():
        return ()
    calls = []
    for line in path.read_text("utf-8").splitlines():
        fields = [_unescape(field) for field in line.split("\t")]
        calls.append(PrintfCall(fields[0], tuple(fields[1:])))
    return tuple(calls)
