# Sourced by the device scripts (gpu-check.sh, gpu-perf.sh): unpack_debs DIR unpacks DIR's Debian .debs (libinih,
# zlib, hwloc: what the lent GPU machines lack) into /tmp/tess-deps and puts their libraries on LD_LIBRARY_PATH;
# CMake then finds them with -DCMAKE_PREFIX_PATH=/tmp/tess-deps/usr.
unpack_debs() {
    local f l
    for f in "$1"/*.deb; do dpkg -x "$f" /tmp/tess-deps; done
    # Their .pc files name prefix=/usr, which pkg-config would believe: find the files by path instead.
    rm -rf /tmp/tess-deps/usr/lib/x86_64-linux-gnu/pkgconfig
    # A development link that names an absolute path (zlib1g-dev's libz.so) points into the unpacked tree when
    # the machine lacks its target.
    for l in /tmp/tess-deps/usr/lib/x86_64-linux-gnu/*.so; do
        [ -L "$l" ] && ! [ -e "$l" ] && ln -sf "/tmp/tess-deps$(readlink "$l")" "$l"
    done
    export LD_LIBRARY_PATH=/tmp/tess-deps/usr/lib/x86_64-linux-gnu:/tmp/tess-deps/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
}
