entry @ptr_offset_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>, %arg2: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %5 = broadcast %4 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %6 = constant <i32: 128> : tile<i32>
  %7 = muli %1, %6 : tile<i32>
  %8 = reshape %7 : tile<i32> -> tile<1xi32>
  %9 = broadcast %8 : tile<1xi32> -> tile<128xi32>
  %10 = iota : tile<128xi32>
  %11 = addi %9, %10 : tile<128xi32>
  %12 = offset %5, %11 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %13 = ptr_to_int %12 : tile<128xptr<f32>> -> tile<128xi64>
  %14 = ptr_to_int %arg0 : tile<ptr<f32>> -> tile<i64>
  %15 = reshape %14 : tile<i64> -> tile<1xi64>
  %16 = broadcast %15 : tile<1xi64> -> tile<128xi64>
  %17 = subi %13, %16 : tile<128xi64>
  %18 = constant <i64: 0> : tile<128xi64>
  %19 = cmpi greater_than_or_equal %17, %18, signed : tile<128xi64> -> tile<128xi1>
  %20 = constant <i64: 4> : tile<i64>
  %21 = muli %arg2, %20 : tile<i64>
  %22 = subi %21, %20 : tile<i64>
  %23 = reshape %22 : tile<i64> -> tile<1xi64>
  %24 = broadcast %23 : tile<1xi64> -> tile<128xi64>
  %25 = cmpi less_than_or_equal %17, %24, signed : tile<128xi64> -> tile<128xi1>
  %26 = andi %19, %25 : tile<128xi1>
  assert %26, "kernel `ptr_offset_f32`: `load_ptr_tko`: a lane addresses memory outside argument 0 (In) (at pointers.py:93)" : tile<128xi1>
  %27, %28 = load_ptr_tko weak %12 token=%0 : tile<128xptr<f32>> -> tile<128xf32>, token
  %29 = constant <f32: 3.000000e+00> : tile<128xf32>
  %30 = mulf %27, %29  : tile<128xf32>
  %31 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %32 = make_tensor_view %31, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %33 = make_partition_view %32 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %34 = store_view_tko weak %30, %33[%1] token = %28 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> token
  return
}
