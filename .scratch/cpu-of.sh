for p in 2975 3071 3184; do awk -v p=$p '{printf "%s %.1f  ", p, ($14+$15)/100}' /proc/$p/stat; done; echo
