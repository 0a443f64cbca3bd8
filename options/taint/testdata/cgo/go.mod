module example.com/taintcgo

go 1.22
