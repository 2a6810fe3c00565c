# One line per kernel from nvcc's -Xptxas=-v report (ci/gpu-check.sh): kernel and architecture, its stack frame and
# spills, its registers. A kernel's lines are taken only in their own order (entry, its properties, its frame, its
# registers); the properties of device functions that are not entries are skipped.
/Compiling entry function/ {
    match($0, /'[^']*'/); name = substr($0, RSTART + 1, RLENGTH - 2)
    rest = substr($0, RSTART + RLENGTH); match(rest, /'[^']*'/); arch = substr(rest, RSTART + 1, RLENGTH - 2)
    props = ""; frame = ""; next
}
/Function properties for/ { props = $NF; next }
/bytes stack frame/ { if (name != "" && props == name) { frame = $0; gsub(/ +/, " ", frame) }; next }
/Used [0-9]+ registers/ {
    if (name != "") {
        line = $0; sub(/.*ptxas info *: */, "", line); gsub(/ +/, " ", line)
        print name " " arch "\t" frame "\t" line
    }
    name = ""; next
}
