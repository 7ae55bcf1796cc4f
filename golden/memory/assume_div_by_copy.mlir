entry @assume_div_by_copy(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>, %arg2: tile<i64>, %arg3: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = constant <i32: 256> : tile<i32>
  %5 = muli %1, %4 : tile<i32>
  %6 = assume div_by<16>, %5 : tile<i32>
  %7 = reshape %6 : tile<i32> -> tile<1xi32>
  %8 = broadcast %7 : tile<1xi32> -> tile<256xi32>
  %9 = iota : tile<256xi32>
  %10 = addi %8, %9 : tile<256xi32>
  %11 = exti %10 signed : tile<256xi32> -> tile<256xi64>
  %12 = constant <i64: 0> : tile<256xi64>
  %13 = cmpi greater_than_or_equal %11, %12, signed : tile<256xi64> -> tile<256xi1>
  %14 = reshape %arg2 : tile<i64> -> tile<1xi64>
  %15 = broadcast %14 : tile<1xi64> -> tile<256xi64>
  %16 = cmpi less_than %11, %15, signed : tile<256xi64> -> tile<256xi1>
  %17 = andi %13, %16 : tile<256xi1>
  assert %17, "kernel `assume_div_by_copy`: `load_ptr_tko`: a lane addresses memory outside argument 0 (Shared) (at scaled.py:128)" : tile<256xi1>
  %18 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %19 = broadcast %18 : tile<1xptr<f32>> -> tile<256xptr<f32>>
  %20 = offset %19, %10 : tile<256xptr<f32>>, tile<256xi32> -> tile<256xptr<f32>>
  %21, %22 = load_ptr_tko weak %20 token=%0 : tile<256xptr<f32>> -> tile<256xf32>, token
  %23 = reshape %arg3 : tile<i64> -> tile<1xi64>
  %24 = broadcast %23 : tile<1xi64> -> tile<256xi64>
  %25 = cmpi less_than %11, %24, signed : tile<256xi64> -> tile<256xi1>
  %26 = andi %13, %25 : tile<256xi1>
  assert %26, "kernel `assume_div_by_copy`: `store_ptr_tko`: a lane addresses memory outside argument 1 (Shared) (at scaled.py:129)" : tile<256xi1>
  %27 = constant <i32: 4> : tile<256xi32>
  %28 = muli %9, %27 : tile<256xi32>
  %29 = assume div_by<4, every 4 along 0>, %28 : tile<256xi32>
  %30 = itof %29 signed  : tile<256xi32> -> tile<256xf32>
  %31 = addf %21, %30  : tile<256xf32>
  %32 = reshape %arg1 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %33 = broadcast %32 : tile<1xptr<f32>> -> tile<256xptr<f32>>
  %34 = offset %33, %10 : tile<256xptr<f32>>, tile<256xi32> -> tile<256xptr<f32>>
  %35 = store_ptr_tko weak %34, %31 token=%22 : tile<256xptr<f32>>, tile<256xf32> -> token
  return
}
