module example.com/between

go 1.24
