module example.com/taintdata

go 1.26
