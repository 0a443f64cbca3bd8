module example.com/timingdata

go 1.26
