#!/bin/sh
# verify.sh ARCHIVE_DIR... — check skein corpus traces with otf2-print.
#
# For each directory holding traces.otf2: otf2-print reads it without an
# error; every Enter has its Leave; every MPI_Isend has its completion and
# every MPI_Irecv request its MpiIrecv; on MPI_COMM_WORLD every message
# (sender, receiver, tag) has a matching receive, counted both ways; every
# collective has its begin and end, and every location took part in the
# same number of MPI_COMM_WORLD collectives. Prints one line per trace;
# exit status 1 if any check failed.
set -u
status=0
for dir in "$@"; do
    dir=${dir%/}
    anchor=$dir/traces.otf2
    if [ ! -f "$anchor" ]; then
        echo "verify: $dir: no traces.otf2" >&2
        status=1
        continue
    fi
    tmp=$(mktemp -d) || exit 1
    if ! otf2-print -G "$anchor" >"$tmp/defs" 2>"$tmp/err" ||
       ! otf2-print "$anchor" >"$tmp/events" 2>>"$tmp/err" || [ -s "$tmp/err" ]; then
        echo "verify: $dir: otf2-print failed: $(head -n 1 "$tmp/err")" >&2
        rm -rf "$tmp"
        status=1
        continue
    fi
    # Location ids in rank order, from the MPI_COMM_WORLD location group.
    awk '/^GROUP/ && /Type: COMM_LOCATIONS/ {
             m = substr($0, index($0, "Members:"))
             n = split(m, a, "<"); k = 0
             for (i = 2; i <= n; i++) { split(a[i], b, ">"); if (b[1] ~ /^[0-9]+$/) print k++, b[1] }
         }' "$tmp/defs" >"$tmp/ranks"
    awk -v dir="$dir" -v ranksfile="$tmp/ranks" '
        BEGIN {
            while ((getline line < ranksfile) > 0) { split(line, f, " "); rank[f[2]] = f[1]; nloc++ }
        }
        function field(name,   s) {
            if (!match($0, name ": [-0-9]+")) return ""
            s = substr($0, RSTART, RLENGTH); sub(/.*: /, "", s); return s
        }
        function comm() { return match($0, /Communicator: "MPI_COMM_WORLD"/) ? "world" : "other" }
        $1 == "ENTER" { enter++ }
        $1 == "LEAVE" { leave++ }
        $1 == "MPI_ISEND" { isend++ }
        $1 == "MPI_ISEND_COMPLETE" { isendc++ }
        $1 == "MPI_IRECV_REQUEST" { irecvq++ }
        $1 == "MPI_IRECV" { irecv++ }
        $1 == "MPI_SEND" || $1 == "MPI_ISEND" {
            sends++
            if (comm() == "world") pair[rank[$2] "->" field("Receiver") " tag " field("Tag")]++
            else other++
        }
        $1 == "MPI_RECV" || $1 == "MPI_IRECV" {
            recvs++
            if (comm() == "world") pair[field("Sender") "->" rank[$2] " tag " field("Tag")]--
            else other--
        }
        $1 == "MPI_COLLECTIVE_BEGIN" { cb++ }
        $1 == "MPI_COLLECTIVE_END" {
            ce++
            if (comm() == "world") wcoll[$2]++
        }
        END {
            bad = ""
            if (nloc == 0) bad = bad " no MPI_COMM_WORLD location group;"
            if (enter != leave) bad = bad " " enter " enters but " leave " leaves;"
            if (isend != isendc) bad = bad " " isend " Isends but " isendc " completions;"
            if (irecvq != irecv) bad = bad " " irecvq " Irecv requests but " irecv " completions;"
            if (sends != recvs) bad = bad " " sends " sends but " recvs " receives;"
            nb = 0
            for (k in pair) if (pair[k] != 0 && nb++ < 5) bad = bad " unmatched " k " (" pair[k] ");"
            if (nb > 5) bad = bad " ... (" nb " unmatched pairs in all);"
            if (other != 0) bad = bad " unbalanced messages on other communicators;"
            if (cb != ce) bad = bad " " cb " collective begins but " ce " ends;"
            nw = -1
            for (l in rank) {
                c = (l in wcoll) ? wcoll[l] : 0
                if (nw < 0) nw = c
                else if (c != nw) { bad = bad " location " l " in " c " world collectives, others in " nw ";" }
            }
            if (bad != "") { print "verify: " dir ":" bad; exit 1 }
            printf "verify: %s: ok (%d ranks, %d messages matched, %d collective calls, %d enter/leave pairs)\n", dir, nloc, sends, ce, enter
        }' "$tmp/events" || status=1
    rm -rf "$tmp"
done
exit $status
