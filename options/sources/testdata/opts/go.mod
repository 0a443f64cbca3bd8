module example.com/opts

go 1.26
