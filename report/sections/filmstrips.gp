# SPDX-License-Identifier: MIT
# filmstrips.gp: snapshots over time of the S3 scenes, five per scene in a
# row (time left to right); for the PNG also an animated GIF per scene of
# every snapshot (fig/filmstrip_NAME.gif beside `out`).
#   gnuplot -e "data='data/filmstrips.tsv'; datadir='data/'; out='fig/filmstrips.png'; fmt='png'" PLOTS/filmstrips.gp
# Reads filmstrips.tsv (data: per scene its shot count, the frames between
# shots and the extent of its drawing) and filmstrips_{cloth,cube,curtain,
# pile}.tsv from datadir: one data block per snapshot (blocks separated by
# two blank lines, each with its header line x0 y0 x1 y1 c: projected
# segments and a colour value; read by column number, which gnuplot does
# faster than by name, in that order).
if (!exists("datadir")) datadir = data[1:strlen(data) - strlen('filmstrips.tsv')]
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
eval fig_terminal(4.8)
set output out

scenes = "cloth cube curtain pile"
titles = "'cloth drapes over the sphere' 'tet cube dropped from 0.5 m' 'curtain torn into two pieces' 'ten soft cubes fall asleep (red: asleep)'"
file(s) = datadir . 'filmstrips_' . word(scenes, s) . '.tsv'
# the sphere of the cloth scene, centre (0, 0.45, 0) radius 0.35, seen
# orthographically (azimuth 35, elevation 20 degrees): a circle
sph_y = 0.45 * cos(20 * pi / 180)
# one frame per scene: its extent over every snapshot, with the shot count
# and the frames between shots, from the figure's own table (data)
array XL[4]; array XH[4]; array YL[4]; array YH[4]; array EVERY[4]
stats data using (s = int(column("scene")), XL[s] = column("xmin"), XH[s] = column("xmax"), \
                  YL[s] = column("ymin"), YH[s] = column("ymax"), EVERY[s] = column("every"), \
                  SHOTS = int(column("shots")), 0) nooutput
pal(s) = (s == 4 ? 1 : 0)
set palette defined (0 '#313695', 1 '#4575b4', 2 '#74add1', 3 '#fee090', 4 '#f46d43', 5 '#a50026')
unset key
unset colorbox
set size ratio -1
unset xtics; unset ytics; unset border; unset grid

set multiplot layout 4, 5 title "Filmstrips of the S3 scenes, time left to right" font F11
do for [s = 1:4] {
    do for [k = 1:5] {
        b = int((k - 1) * (SHOTS - 1) / 4.0 + 0.5)
        # the scene's name over the middle shot, centred: wider than one panel
        set title sprintf('%s', k == 3 ? word(titles, s) : ' ') font F9
        set xrange [XL[s] - 0.05 : XH[s] + 0.05]
        set yrange [YL[s] - 0.05 : YH[s] + 0.05]
        if (s == 4) { set cbrange [0:1] } else { set cbrange [0:0.3] }
        set label 1 sprintf('t = %.2f s', b * EVERY[s] / 60.0) at graph 0.02, graph 0.05 font F8
        if (s == 1) { set object 1 circle at 0, sph_y size 0.35 fs empty border lc rgb '#999999' } else { unset object 1 }
        plot file(s) index b using 1:2:($3 - $1):($4 - $2):5 \
             with vectors nohead lw 1 lc palette
    }
}
unset multiplot
unset label 1

# the animations (PNG run only: one GIF per scene, every snapshot)
if (fmt eq 'png') {
    figdir = out[1:strlen(out) - strlen('filmstrips.png')]
    do for [s = 1:4] {
        set terminal gif animate delay 12 loop 0 size 480,400 font 'Sans,9'
        set output figdir . 'filmstrip_' . word(scenes, s) . '.gif'
        set xrange [XL[s] - 0.05 : XH[s] + 0.05]
        set yrange [YL[s] - 0.05 : YH[s] + 0.05]
        if (s == 4) { set cbrange [0:1] } else { set cbrange [0:0.3] }
        do for [b = 0:SHOTS - 1] {
            set title sprintf('%s, t = %.2f s', word(titles, s), b * EVERY[s] / 60.0)
            if (s == 1) { set object 1 circle at 0, sph_y size 0.35 fs empty border lc rgb '#999999' } else { unset object 1 }
            plot file(s) index b using 1:2:($3 - $1):($4 - $2):5 \
                 with vectors nohead lw 1 lc palette
        }
        set output
    }
}
