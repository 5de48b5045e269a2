module skein

go 1.26.8
